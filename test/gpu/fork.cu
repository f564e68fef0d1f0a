// fork, two ways.
//  after:  the parent uses CUDA, forks a child that does no CUDA and exits,
//          then goes on: the child must neither hang nor write a profile.
//  before: the parent forks before CUDA starts; the child and then the parent
//          use CUDA: each writes its own profile.
#include "gpu_check.h"

#include <cstring>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

static void work(int rounds) {
  const int n = 1 << 20;
  std::vector<float> host(n, 1.0f);
  float *in, *out;
  CHECK(cudaMalloc(&in, n * sizeof(float)));
  CHECK(cudaMalloc(&out, n * sizeof(float)));
  for (int r = 0; r < rounds; ++r) {
    CHECK(cudaMemcpy(in, host.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    gpu_check_scale<<<(n + 255) / 256, 256>>>(in, out, n);
    CHECK(cudaMemcpy(host.data(), out, n * sizeof(float), cudaMemcpyDeviceToHost));
  }
  CHECK(cudaFree(in));
  CHECK(cudaFree(out));
}

static int waitChild(pid_t pid) {
  int status = 0;
  if (waitpid(pid, &status, 0) != pid)
    return 1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int main(int argc, char **argv) {
  bool before = argc > 1 && !std::strcmp(argv[1], "before");
  if (before) {
    pid_t pid = fork();
    if (pid == 0) {
      work(3);
      return 0;
    }
    int rc = waitChild(pid);
    work(5);
    std::printf("fork before: child exited %d\n", rc);
    return rc;
  }
  work(5);
  pid_t pid = fork();
  if (pid == 0) {
    std::printf("fork after: child %d running\n", static_cast<int>(getpid()));
    return 0; // exit() runs the collector's exit handler: it must do nothing.
  }
  int rc = waitChild(pid);
  work(5);
  std::printf("fork after: child exited %d\n", rc);
  return rc;
}
