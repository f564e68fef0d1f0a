// thrust::unary_function and thrust::binary_function, which CCCL 3.0 (CUDA
// 13.0) removed, are declared again so that older Thrust code parses, and
// their use as a functor's base is reported once per file, as a note (exit
// code 0). A functor with no base, a project's own class of that name in
// its own namespace, and a project's own back-port into namespace thrust
// (the file is parsed again without cuda-advisor's) are not reported and
// leave no compiler error.
// RUN: %expect-exit 0 %cuda-advisor --checks='-*,compat-removed-api' %s -- -x cuda -std=c++17 \
// RUN:   2>&1 | FileCheck %s --implicit-check-not='note:' --implicit-check-not='warning:' --implicit-check-not='error:'
// RUN: %expect-exit 0 %cuda-advisor -v --checks='-*,compat-removed-api' %s -- -x cuda -std=c++17 -DBACKPORT \
// RUN:   2>&1 | FileCheck %s --check-prefix=BACKPORT --implicit-check-not='[compat-removed-api]' --implicit-check-not='error:'
// REQUIRES: cuda

#include <thrust/device_vector.h>
#include <thrust/transform.h>

#ifdef BACKPORT
namespace thrust {
template <typename A, typename R> struct unary_function {
  typedef A argument_type;
  typedef R result_type;
};
template <typename A1, typename A2, typename R> struct binary_function {
  typedef R result_type;
};
} // namespace thrust
#endif

namespace mylib {
template <typename A, typename R> struct unary_function {
  typedef R result_type;
};
} // namespace mylib

// CHECK: compat-removed-thrust.cu:[[@LINE+1]]:24: note: thrust::unary_function was removed in CUDA 13.0; cuda-advisor declares it so the file can be analyzed: drop the base class (and declare in the functor any member type the code uses, such as result_type) [compat-removed-api]
struct square : public thrust::unary_function<float, float> {
  __host__ __device__ float operator()(float x) const { return x * x; }
};
struct cube : thrust::unary_function<float, float> { // Same API: no second note.
  __host__ __device__ float operator()(float x) const { return x * x * x; }
};
// CHECK: compat-removed-thrust.cu:[[@LINE+1]]:15: note: thrust::binary_function was removed in CUDA 13.0
struct plus : thrust::binary_function<float, float, float> {
  __host__ __device__ float operator()(float a, float b) const { return a + b; }
};
// A template that the file never instantiates: the same API, no second note.
template <class T> struct absdiff : thrust::unary_function<T, T> {
  __host__ __device__ T operator()(T x) const { return x < 0 ? -x : x; }
};
struct halve {
  __host__ __device__ float operator()(float x) const { return x / 2; }
};
struct twice : mylib::unary_function<float, float> {
  __host__ __device__ float operator()(float x) const { return 2 * x; }
};

int main() {
  thrust::device_vector<float> v(10, 1.0f), w(10);
  square::result_type r = 0;
  thrust::transform(v.begin(), v.end(), w.begin(), square());
  thrust::transform(v.begin(), v.end(), w.begin(), cube());
  thrust::transform(v.begin(), v.end(), w.begin(), v.begin(), plus());
  thrust::transform(v.begin(), v.end(), w.begin(), halve());
  thrust::transform(v.begin(), v.end(), w.begin(), twice());
  return (int)r;
}
// CHECK: 2 findings in 1 file
// BACKPORT: note: {{.*}}compat-removed-thrust.cu: the file declares its own thrust::unary_function or thrust::binary_function: parsed again without cuda-advisor's
// BACKPORT: 0 findings in 1 file
