// A kernel whose locals Clang could not initialize (a __host__-only
// constructor called in device code, a member template call that matches
// no candidate: CGBN's samples without their device headers) leaves
// initializers without a type. The kernel walk skips them: the file is
// analyzed with its compiler errors (exit 2), not reported as a crash, and
// the finding at the intact launch is kept.
// RUN: %expect-exit 2 %cuda-advisor --checks='-*,launch-grid-truncation,kernel-fusion,access-uncoalesced,access-shared-bank-conflict' %s -- -x cuda \
// RUN:   2>&1 | FileCheck %s --implicit-check-not='crashed'
// REQUIRES: cuda

#include <cuda_runtime.h>
struct mpz { int *p; };
template <class C, unsigned bits> class Env;
template <unsigned tpi> class Context {
public:
  static const unsigned TPI = tpi;
  __host__ Context(int m, int *report, unsigned instance);
  template <class E> E env() { E e(*this); return e; }
  template <unsigned bits> Env<Context, bits> env() { Env<Context, bits> e(*this); return e; }
};
template <class C, unsigned bits> class Env {
public:
  static const unsigned LIMBS = (bits / 32 + C::TPI - 1) / C::TPI;
  struct Num { mpz z; __host__ Num() {} __host__ ~Num() {} };
  __host__ Env(C &c);
};
typedef Context<32> context_t;
typedef Env<context_t, 1024> env_t;
struct instance_t { unsigned a[32], b[32], sum[32]; };
__global__ void kernel_add(int *report, instance_t *instances, unsigned count) {
  int instance = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  if (instance >= count) return;
  context_t bn_context(1, report, instance);
  env_t bn_env(bn_context.env<env_t>());
  env_t::Num a, b, r;
  instances[instance].sum[0] = 0;
}
void launch(int *r, instance_t *o, unsigned n) {
  // CHECK: :[[@LINE+1]]:16: warning: grid of n / 128 blocks drops the last n % 128 elements
  kernel_add<<<n / 128, 128>>>(r, o, n);
  kernel_add<<<(n + 3) / 4, 128>>>(r, o, n);
}
// CHECK: 1 finding in 1 file (1 with compiler errors).
