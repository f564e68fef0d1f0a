// Declared __host__ __device__ here, defined without the attributes in the
// .cu file, as nvcc allows.
#pragma once
struct Vec3 {
  float x, y, z;
  __host__ __device__ Vec3();
  __host__ __device__ Vec3(float x, float y, float z);
  __host__ __device__ ~Vec3();
  __host__ __device__ float dot(const Vec3 &o) const;
  __host__ __device__ Vec3 operator+(const Vec3 &o) const;
};
__host__ __device__ float length2(const Vec3 &v);
__host__ __device__ float sum(const Vec3 &v);
