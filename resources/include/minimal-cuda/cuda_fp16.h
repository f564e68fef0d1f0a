/* cuda-advisor bundled minimal CUDA declarations: cuda_fp16.h. Half precision (__half, __half2).
 * Written for cuda-advisor (declarations only): the types, their conversions
 * to and from float and the integer types, arithmetic and comparison
 * operators, and the common conversion intrinsics. Names and signatures
 * follow CUDA 13.0. */
#ifndef CUDA_ADVISOR_CUDA_FP16_H
#define CUDA_ADVISOR_CUDA_FP16_H
#include "cuda_advisor_minimal.h"
#ifdef __cplusplus
struct __half_raw {
  unsigned short x;
};
struct __half_raw2 {
  unsigned short x, y;
};
struct alignas(2) __half {
  unsigned short __x;
  __half() = default;
  __host__ __device__ __half(const __half_raw &r);
  __host__ __device__ __half(float f);
  __host__ __device__ __half(double f);
  __host__ __device__ __half(int v);
  __host__ __device__ __half(unsigned int v);
  __host__ __device__ __half(short v);
  __host__ __device__ __half(unsigned short v);
  __host__ __device__ __half(long v);
  __host__ __device__ __half(unsigned long v);
  __host__ __device__ __half(long long v);
  __host__ __device__ __half(unsigned long long v);
  __host__ __device__ __half &operator=(const __half_raw &r);
  __host__ __device__ operator __half_raw() const;
  __host__ __device__ operator float() const;
  __host__ __device__ explicit operator bool() const;
};
struct alignas(4) __half2 {
  __half x, y;
  __half2() = default;
  __host__ __device__ __half2(const __half &a, const __half &b);
  __host__ __device__ __half2(const __half_raw2 &r);
  __host__ __device__ operator __half_raw2() const;
};
__host__ __device__ __half operator+(const __half &a, const __half &b);
__host__ __device__ __half &operator+=(__half &a, const __half &b);
__host__ __device__ __half2 operator+(const __half2 &a, const __half2 &b);
__host__ __device__ __half operator-(const __half &a, const __half &b);
__host__ __device__ __half &operator-=(__half &a, const __half &b);
__host__ __device__ __half2 operator-(const __half2 &a, const __half2 &b);
__host__ __device__ __half operator*(const __half &a, const __half &b);
__host__ __device__ __half &operator*=(__half &a, const __half &b);
__host__ __device__ __half2 operator*(const __half2 &a, const __half2 &b);
__host__ __device__ __half operator/(const __half &a, const __half &b);
__host__ __device__ __half &operator/=(__half &a, const __half &b);
__host__ __device__ __half2 operator/(const __half2 &a, const __half2 &b);
__host__ __device__ bool operator==(const __half &a, const __half &b);
__host__ __device__ bool operator!=(const __half &a, const __half &b);
__host__ __device__ bool operator<(const __half &a, const __half &b);
__host__ __device__ bool operator>(const __half &a, const __half &b);
__host__ __device__ bool operator<=(const __half &a, const __half &b);
__host__ __device__ bool operator>=(const __half &a, const __half &b);
__host__ __device__ __half operator-(const __half &a);
__host__ __device__ __half operator+(const __half &a);
__host__ __device__ __half __float2half(const float a);
__host__ __device__ __half __float2half_rn(const float a);
__host__ __device__ __half __double2half(const double a);
__host__ __device__ float __half2float(const __half a);
__host__ __device__ __half2 __float2half2_rn(const float a);
__host__ __device__ __half2 __floats2half2_rn(const float a, const float b);
__host__ __device__ __half2 __float22half2_rn(const float2 a);
__host__ __device__ float2 __half22float2(const __half2 a);
__host__ __device__ float __low2float(const __half2 a);
__host__ __device__ float __high2float(const __half2 a);
__host__ __device__ __half2 __halves2half2(const __half a, const __half b);
__host__ __device__ __half2 __half2half2(const __half a);
__device__ __half __hadd(const __half a, const __half b);
__device__ __half __hsub(const __half a, const __half b);
__device__ __half __hmul(const __half a, const __half b);
__device__ __half __hdiv(const __half a, const __half b);
__device__ __half __hfma(const __half a, const __half b, const __half c);
__device__ __half2 __hadd2(const __half2 a, const __half2 b);
__device__ __half2 __hmul2(const __half2 a, const __half2 b);
__device__ __half2 __hfma2(const __half2 a, const __half2 b, const __half2 c);
__device__ __half hexp(const __half a);
__device__ __half hsqrt(const __half a);
__device__ __half hrsqrt(const __half a);
__device__ __half __hmax(const __half a, const __half b);
__device__ __half __hmin(const __half a, const __half b);
__host__ __device__ bool __hisnan(const __half a);
__device__ __half __shfl_sync(unsigned mask, __half var, int srcLane, int width = 32);
__device__ __half __shfl_xor_sync(unsigned mask, __half var, int laneMask, int width = 32);
__device__ __half __shfl_down_sync(unsigned mask, __half var, unsigned int delta, int width = 32);
__device__ __half atomicAdd(__half *address, __half val);
__device__ __half2 atomicAdd(__half2 *address, __half2 val);
typedef __half half;
typedef __half2 half2;
#define __CUDA_FP16_H__
#define __CUDA_FP16_TYPES_EXIST__
#endif
#endif
