/* cuda-advisor bundled minimal CUDA declarations: cuda_bf16.h. Brain floating point (__nv_bfloat16, __nv_bfloat162).
 * Written for cuda-advisor (declarations only): the types, their conversions
 * to and from float and the integer types, arithmetic and comparison
 * operators, and the common conversion intrinsics. Names and signatures
 * follow CUDA 13.0. */
#ifndef CUDA_ADVISOR_CUDA_BF16_H
#define CUDA_ADVISOR_CUDA_BF16_H
#include "cuda_advisor_minimal.h"
#ifdef __cplusplus
struct __nv_bfloat16_raw {
  unsigned short x;
};
struct __nv_bfloat16_raw2 {
  unsigned short x, y;
};
struct alignas(2) __nv_bfloat16 {
  unsigned short __x;
  __nv_bfloat16() = default;
  __host__ __device__ __nv_bfloat16(const __nv_bfloat16_raw &r);
  __host__ __device__ __nv_bfloat16(float f);
  __host__ __device__ __nv_bfloat16(double f);
  __host__ __device__ __nv_bfloat16(int v);
  __host__ __device__ __nv_bfloat16(unsigned int v);
  __host__ __device__ __nv_bfloat16(short v);
  __host__ __device__ __nv_bfloat16(unsigned short v);
  __host__ __device__ __nv_bfloat16(long v);
  __host__ __device__ __nv_bfloat16(unsigned long v);
  __host__ __device__ __nv_bfloat16(long long v);
  __host__ __device__ __nv_bfloat16(unsigned long long v);
  __host__ __device__ __nv_bfloat16 &operator=(const __nv_bfloat16_raw &r);
  __host__ __device__ operator __nv_bfloat16_raw() const;
  __host__ __device__ operator float() const;
  __host__ __device__ explicit operator bool() const;
};
struct alignas(4) __nv_bfloat162 {
  __nv_bfloat16 x, y;
  __nv_bfloat162() = default;
  __host__ __device__ __nv_bfloat162(const __nv_bfloat16 &a, const __nv_bfloat16 &b);
  __host__ __device__ __nv_bfloat162(const __nv_bfloat16_raw2 &r);
  __host__ __device__ operator __nv_bfloat16_raw2() const;
};
__host__ __device__ __nv_bfloat16 operator+(const __nv_bfloat16 &a, const __nv_bfloat16 &b);
__host__ __device__ __nv_bfloat16 &operator+=(__nv_bfloat16 &a, const __nv_bfloat16 &b);
__host__ __device__ __nv_bfloat162 operator+(const __nv_bfloat162 &a, const __nv_bfloat162 &b);
__host__ __device__ __nv_bfloat16 operator-(const __nv_bfloat16 &a, const __nv_bfloat16 &b);
__host__ __device__ __nv_bfloat16 &operator-=(__nv_bfloat16 &a, const __nv_bfloat16 &b);
__host__ __device__ __nv_bfloat162 operator-(const __nv_bfloat162 &a, const __nv_bfloat162 &b);
__host__ __device__ __nv_bfloat16 operator*(const __nv_bfloat16 &a, const __nv_bfloat16 &b);
__host__ __device__ __nv_bfloat16 &operator*=(__nv_bfloat16 &a, const __nv_bfloat16 &b);
__host__ __device__ __nv_bfloat162 operator*(const __nv_bfloat162 &a, const __nv_bfloat162 &b);
__host__ __device__ __nv_bfloat16 operator/(const __nv_bfloat16 &a, const __nv_bfloat16 &b);
__host__ __device__ __nv_bfloat16 &operator/=(__nv_bfloat16 &a, const __nv_bfloat16 &b);
__host__ __device__ __nv_bfloat162 operator/(const __nv_bfloat162 &a, const __nv_bfloat162 &b);
__host__ __device__ bool operator==(const __nv_bfloat16 &a, const __nv_bfloat16 &b);
__host__ __device__ bool operator!=(const __nv_bfloat16 &a, const __nv_bfloat16 &b);
__host__ __device__ bool operator<(const __nv_bfloat16 &a, const __nv_bfloat16 &b);
__host__ __device__ bool operator>(const __nv_bfloat16 &a, const __nv_bfloat16 &b);
__host__ __device__ bool operator<=(const __nv_bfloat16 &a, const __nv_bfloat16 &b);
__host__ __device__ bool operator>=(const __nv_bfloat16 &a, const __nv_bfloat16 &b);
__host__ __device__ __nv_bfloat16 operator-(const __nv_bfloat16 &a);
__host__ __device__ __nv_bfloat16 operator+(const __nv_bfloat16 &a);
__host__ __device__ __nv_bfloat16 __float2bfloat16(const float a);
__host__ __device__ __nv_bfloat16 __float2bfloat16_rn(const float a);
__host__ __device__ __nv_bfloat16 __double2bfloat16(const double a);
__host__ __device__ float __bfloat162float(const __nv_bfloat16 a);
__host__ __device__ __nv_bfloat162 __float2bfloat162_rn(const float a);
__host__ __device__ __nv_bfloat162 __floats2bfloat162_rn(const float a, const float b);
__host__ __device__ __nv_bfloat162 __float22bfloat162_rn(const float2 a);
__host__ __device__ float2 __bfloat1622float2(const __nv_bfloat162 a);
__host__ __device__ float __low2float(const __nv_bfloat162 a);
__host__ __device__ float __high2float(const __nv_bfloat162 a);
__host__ __device__ __nv_bfloat162 __halves2bfloat162(const __nv_bfloat16 a, const __nv_bfloat16 b);
__host__ __device__ __nv_bfloat162 __bfloat162bfloat162(const __nv_bfloat16 a);
__device__ __nv_bfloat16 __hadd(const __nv_bfloat16 a, const __nv_bfloat16 b);
__device__ __nv_bfloat16 __hsub(const __nv_bfloat16 a, const __nv_bfloat16 b);
__device__ __nv_bfloat16 __hmul(const __nv_bfloat16 a, const __nv_bfloat16 b);
__device__ __nv_bfloat16 __hdiv(const __nv_bfloat16 a, const __nv_bfloat16 b);
__device__ __nv_bfloat16 __hfma(const __nv_bfloat16 a, const __nv_bfloat16 b, const __nv_bfloat16 c);
__device__ __nv_bfloat162 __hadd2(const __nv_bfloat162 a, const __nv_bfloat162 b);
__device__ __nv_bfloat162 __hmul2(const __nv_bfloat162 a, const __nv_bfloat162 b);
__device__ __nv_bfloat162 __hfma2(const __nv_bfloat162 a, const __nv_bfloat162 b, const __nv_bfloat162 c);
__device__ __nv_bfloat16 hexp(const __nv_bfloat16 a);
__device__ __nv_bfloat16 hsqrt(const __nv_bfloat16 a);
__device__ __nv_bfloat16 hrsqrt(const __nv_bfloat16 a);
__device__ __nv_bfloat16 __hmax(const __nv_bfloat16 a, const __nv_bfloat16 b);
__device__ __nv_bfloat16 __hmin(const __nv_bfloat16 a, const __nv_bfloat16 b);
__host__ __device__ bool __hisnan(const __nv_bfloat16 a);
__device__ __nv_bfloat16 __shfl_sync(unsigned mask, __nv_bfloat16 var, int srcLane, int width = 32);
__device__ __nv_bfloat16 __shfl_xor_sync(unsigned mask, __nv_bfloat16 var, int laneMask, int width = 32);
__device__ __nv_bfloat16 __shfl_down_sync(unsigned mask, __nv_bfloat16 var, unsigned int delta, int width = 32);
__device__ __nv_bfloat16 atomicAdd(__nv_bfloat16 *address, __nv_bfloat16 val);
__device__ __nv_bfloat162 atomicAdd(__nv_bfloat162 *address, __nv_bfloat162 val);
typedef __nv_bfloat16 nv_bfloat16;
typedef __nv_bfloat162 nv_bfloat162;
#define __CUDA_BF16_H__
#define __CUDA_BF16_TYPES_EXIST__
#endif
#endif
