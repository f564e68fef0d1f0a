//===- Record.cpp - `cuda-advisor record -- PROGRAM ARGS...` --------------===//
//
// Runs PROGRAM with the CUPTI collector injected and reports where its
// profile went. The collector does the recording (lib/Collector); this file
// finds it, tells it where to write (include/cuda-advisor/Collector/
// Environment.h), runs the program as a child (PATH lookup, signals forwarded),
// passes its exit status through, and summarizes the profile from its end
// record. Plain C++ and POSIX: it builds with CUDA_ADVISOR_ENABLE_CLANG=OFF.
//
//===----------------------------------------------------------------------===//
#include "cuda-advisor/Driver/Record.h"

#include "cuda-advisor/Collector/Environment.h"

#include <atomic>
#include <cerrno>
#include <climits>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <dirent.h>
#include <fcntl.h>
#include <optional>
#include <string>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

#ifndef CUDA_ADVISOR_COLLECTOR_NAME
#define CUDA_ADVISOR_COLLECTOR_NAME "libcuda-advisor-collector.so"
#endif
#ifndef CUDA_ADVISOR_LIB_DIR
#define CUDA_ADVISOR_LIB_DIR "lib"
#endif

namespace cuda_advisor::driver {

namespace {

constexpr int ExitRecordError = 2;
const char *const Tool = "cuda-advisor record";

void error(const std::string &Message) {
  std::fprintf(stderr, "%s: error: %s\n", Tool, Message.c_str());
}
void warning(const std::string &Message) {
  std::fprintf(stderr, "%s: warning: %s\n", Tool, Message.c_str());
}
void note(const std::string &Message) { std::fprintf(stderr, "%s: %s\n", Tool, Message.c_str()); }

std::string dirName(const std::string &Path) {
  std::string::size_type Slash = Path.rfind('/');
  if (Slash == std::string::npos)
    return ".";
  return Slash == 0 ? "/" : Path.substr(0, Slash);
}

std::string baseName(const std::string &Path) {
  std::string::size_type Slash = Path.rfind('/');
  return Slash == std::string::npos ? Path : Path.substr(Slash + 1);
}

std::string currentDirectory() {
  char Buf[PATH_MAX];
  return getcwd(Buf, sizeof(Buf)) ? std::string(Buf) : std::string(".");
}

std::string absolutePath(const std::string &Path) {
  if (!Path.empty() && Path[0] == '/')
    return Path;
  std::string P = Path;
  while (P.compare(0, 2, "./") == 0)
    P.erase(0, 2);
  return currentDirectory() + "/" + P;
}

bool isRegularFile(const std::string &Path) {
  struct stat St;
  return stat(Path.c_str(), &St) == 0 && S_ISREG(St.st_mode);
}

/// The directory of the running cuda-advisor executable.
std::string toolDirectory(const char *Argv0) {
  char Buf[PATH_MAX];
  ssize_t N = readlink("/proc/self/exe", Buf, sizeof(Buf) - 1);
  if (N > 0)
    return dirName(std::string(Buf, static_cast<size_t>(N)));
  if (Argv0 && std::strchr(Argv0, '/') && realpath(Argv0, Buf))
    return dirName(Buf);
  return ".";
}

/// --collector, else the library installed next to the tool: <bin>/../lib
/// (the build tree and the install tree) or <bin>/../<libdir>.
std::optional<std::string> findCollector(const RecordOptions &Opts, const char *Argv0) {
  if (!Opts.CollectorPath.empty()) {
    if (isRegularFile(Opts.CollectorPath))
      return absolutePath(Opts.CollectorPath);
    error(Opts.CollectorPath + ": the collector library does not exist (--collector)");
    return std::nullopt;
  }
  std::string Bin = toolDirectory(Argv0);
  std::vector<std::string> Candidates = {
      Bin + "/../" CUDA_ADVISOR_LIB_DIR "/" CUDA_ADVISOR_COLLECTOR_NAME,
      Bin + "/../lib/" CUDA_ADVISOR_COLLECTOR_NAME,
      Bin + "/../lib64/" CUDA_ADVISOR_COLLECTOR_NAME,
      Bin + "/" CUDA_ADVISOR_COLLECTOR_NAME,
  };
  for (const std::string &C : Candidates) {
    char Buf[PATH_MAX];
    if (isRegularFile(C) && realpath(C.c_str(), Buf))
      return std::string(Buf);
  }
  std::string Tried;
  for (const std::string &C : Candidates)
    Tried += "\n  " + C;
  error(std::string("cannot find the collector library ") + CUDA_ADVISOR_COLLECTOR_NAME +
        " (this build may lack CUPTI); looked in:" + Tried +
        "\nUse --collector PATH to name it.");
  return std::nullopt;
}

/// PROGRAM as execv needs it: a path, looked up in PATH when it has no '/'.
std::optional<std::string> findProgram(const std::string &Name) {
  auto Executable = [](const std::string &P) { return isRegularFile(P) && access(P.c_str(), X_OK) == 0; };
  if (Name.find('/') != std::string::npos) {
    if (Executable(Name))
      return Name;
    if (access(Name.c_str(), F_OK) != 0)
      error(Name + ": no such file");
    else
      error(Name + ": not an executable file");
    return std::nullopt;
  }
  const char *Path = std::getenv("PATH");
  std::string Dirs = Path && *Path ? Path : "/usr/local/bin:/usr/bin:/bin";
  size_t Pos = 0;
  while (Pos <= Dirs.size()) {
    size_t End = Dirs.find(':', Pos);
    if (End == std::string::npos)
      End = Dirs.size();
    std::string Dir = Dirs.substr(Pos, End - Pos);
    std::string Candidate = (Dir.empty() ? std::string(".") : Dir) + "/" + Name;
    if (Executable(Candidate))
      return Candidate;
    Pos = End + 1;
  }
  error(Name + ": program not found in PATH");
  return std::nullopt;
}

std::atomic<pid_t> Child{0};

/// Sends a signal that was sent to us (kill, timeout) on to the program. One
/// the terminal sent to the whole foreground group (Ctrl-C) reached the
/// program already, so it is not sent twice.
void forwardSignal(int Sig, siginfo_t *Info, void *) {
  pid_t P = Child.load();
  if (P > 0 && Info && Info->si_code <= 0)
    kill(P, Sig);
}

const int ForwardedSignals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2};

void installForwarding() {
  struct sigaction Sa;
  std::memset(&Sa, 0, sizeof(Sa));
  Sa.sa_sigaction = &forwardSignal;
  Sa.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&Sa.sa_mask);
  for (int Sig : ForwardedSignals)
    sigaction(Sig, &Sa, nullptr);
}

const char *signalName(int Sig) {
  switch (Sig) {
  case SIGSEGV:
    return "SIGSEGV";
  case SIGABRT:
    return "SIGABRT";
  case SIGBUS:
    return "SIGBUS";
  case SIGFPE:
    return "SIGFPE";
  case SIGILL:
    return "SIGILL";
  case SIGKILL:
    return "SIGKILL";
  case SIGTERM:
    return "SIGTERM";
  case SIGINT:
    return "SIGINT";
  case SIGHUP:
    return "SIGHUP";
  case SIGQUIT:
    return "SIGQUIT";
  case SIGPIPE:
    return "SIGPIPE";
  default:
    return "a signal";
  }
}

/// The last line of Path if it ends with a newline (complete), else nullopt.
std::optional<std::string> lastLine(const std::string &Path) {
  int Fd = open(Path.c_str(), O_RDONLY | O_CLOEXEC);
  if (Fd < 0)
    return std::nullopt;
  struct stat St;
  std::optional<std::string> Result;
  if (fstat(Fd, &St) == 0 && St.st_size > 0) {
    off_t Size = St.st_size;
    off_t Want = Size < 256 * 1024 ? Size : 256 * 1024;
    std::string Buf(static_cast<size_t>(Want), '\0');
    ssize_t N = pread(Fd, Buf.data(), Buf.size(), Size - Want);
    if (N == Want && Buf.back() == '\n') {
      Buf.pop_back();
      std::string::size_type NL = Buf.rfind('\n');
      Result = NL == std::string::npos ? Buf : Buf.substr(NL + 1);
    }
  }
  close(Fd);
  return Result;
}

/// Reads `"Key":<number>` from our own end record (no JSON library here: the
/// record's shape is ours, docs/profile-format.md).
std::optional<long long> numberField(const std::string &Line, const std::string &Key) {
  std::string Pattern = "\"" + Key + "\":";
  std::string::size_type P = Line.find(Pattern);
  if (P == std::string::npos)
    return std::nullopt;
  const char *Start = Line.c_str() + P + Pattern.size();
  char *End = nullptr;
  long long V = std::strtoll(Start, &End, 10);
  if (End == Start)
    return std::nullopt;
  return V;
}

std::string stringField(const std::string &Line, const std::string &Key) {
  std::string Pattern = "\"" + Key + "\":\"";
  std::string::size_type P = Line.find(Pattern);
  if (P == std::string::npos)
    return {};
  P += Pattern.size();
  std::string::size_type E = Line.find('"', P);
  return E == std::string::npos ? std::string() : Line.substr(P, E - P);
}

std::string plural(long long N, const char *One, const char *Many) {
  return std::to_string(N) + " " + (N == 1 ? One : Many);
}

void summarize(const std::string &Shown, const std::string &Path) {
  std::optional<std::string> Last = lastLine(Path);
  if (!Last || Last->find("\"type\":\"end\"") == std::string::npos) {
    warning(Shown + " has no end record: the program ended before the collector could finish "
                    "the profile (SIGKILL, _exit, or a crash it could not catch); the profile is "
                    "truncated and cuda-advisor will not read it");
    return;
  }
  const std::string &E = *Last;
  auto N = [&](const char *Key) { return numberField(E, Key).value_or(0); };
  std::string Summary = "wrote " + Shown + ": " + plural(N("kernels"), "kernel", "kernels") + ", " +
                        plural(N("memcpys"), "copy", "copies") + ", " +
                        plural(N("memsets"), "memset", "memsets") + ", " +
                        plural(N("syncs"), "synchronization", "synchronizations") + ", " +
                        plural(N("api_calls"), "API call", "API calls");
  if (N("dropped"))
    Summary += ", " + plural(N("dropped"), "dropped record", "dropped records");
  note(Summary);
  if (long long Failed = N("failed_calls")) {
    std::string::size_type P = E.find("\"first_error\":{");
    std::string First = P == std::string::npos ? std::string() : E.substr(P, E.find('}', P) - P);
    std::string Msg = plural(Failed, "CUDA API call", "CUDA API calls") + " failed";
    if (!First.empty())
      Msg += "; the first: " + stringField(First, "api") + " returned " +
             stringField(First, "error") + " (" +
             std::to_string(numberField(First, "code").value_or(0)) + ")";
    warning(Msg + ". A profile of a failing run misleads: fix the error first");
  }
  if (N("dropped"))
    warning("CUPTI dropped " + plural(N("dropped"), "record", "records") +
            " (its buffers were full): the profile is incomplete");
}

/// Profiles that other processes of the run wrote next to Path:
/// siblingProfilePath(Path, <pid>[-n]), created since Since.
std::vector<std::string> siblingProfiles(const std::string &Path, time_t Since) {
  std::vector<std::string> Found;
  std::string Dir = dirName(Path);
  std::string Probe = baseName(collector::siblingProfilePath(Path, "@"));
  std::string::size_type At = Probe.find('@');
  std::string Prefix = Probe.substr(0, At), Suffix = Probe.substr(At + 1);
  DIR *D = opendir(Dir.c_str());
  if (!D)
    return Found;
  while (dirent *Ent = readdir(D)) {
    std::string Name = Ent->d_name;
    if (Name.size() <= Prefix.size() + Suffix.size() || Name.compare(0, Prefix.size(), Prefix) != 0 ||
        Name.compare(Name.size() - Suffix.size(), Suffix.size(), Suffix) != 0)
      continue;
    std::string Id = Name.substr(Prefix.size(), Name.size() - Prefix.size() - Suffix.size());
    if (Id.empty() || Id.find_first_not_of("0123456789-") != std::string::npos || Id[0] == '-')
      continue;
    std::string Full = Dir + "/" + Name;
    struct stat St;
    if (stat(Full.c_str(), &St) == 0 && St.st_mtime >= Since)
      Found.push_back(Full);
  }
  closedir(D);
  return Found;
}

} // namespace

int runRecord(const RecordOptions &Opts, const char *Argv0) {
  if (Opts.Program.empty()) {
    error("no program given (usage: cuda-advisor record [-o FILE] -- PROGRAM ARGS...)");
    return ExitRecordError;
  }
  std::optional<std::string> Collector = findCollector(Opts, Argv0);
  if (!Collector)
    return ExitRecordError;
  std::optional<std::string> Program = findProgram(Opts.Program[0]);
  if (!Program)
    return ExitRecordError;

  std::string Shown = Opts.Output.empty() ? collector::defaultProfileName(Opts.Program) : Opts.Output;
  std::string Output = absolutePath(Shown);
  struct stat St;
  if (lstat(Output.c_str(), &St) == 0) {
    if (S_ISDIR(St.st_mode)) {
      error(Shown + ": is a directory (-o names the profile file)");
      return ExitRecordError;
    }
    if (!Opts.Force) {
      error(Shown + ": the profile exists already (use -f/--force to overwrite it)");
      return ExitRecordError;
    }
    if (unlink(Output.c_str()) != 0) {
      error(Shown + ": cannot remove it: " + std::strerror(errno));
      return ExitRecordError;
    }
  }
  std::string OutDir = dirName(Output);
  if (access(OutDir.c_str(), W_OK | X_OK) != 0) {
    error(OutDir + ": cannot write the profile there: " + std::strerror(errno));
    return ExitRecordError;
  }

  if (const char *Old = std::getenv(collector::InjectionEnv); Old && *Old && *Collector != Old)
    warning(std::string(collector::InjectionEnv) + " was set to " + Old + "; it is replaced by " +
            *Collector);
  setenv(collector::InjectionEnv, Collector->c_str(), 1);
  setenv(collector::OutputEnv, Output.c_str(), 1);
  if (Opts.NoStacks)
    setenv(collector::StacksEnv, "0", 1);
  if (Opts.Verbose) {
    setenv(collector::VerboseEnv, "1", 1);
    note("collector " + *Collector);
    note("profile " + Output);
    std::string Cmd = *Program;
    for (size_t I = 1; I < Opts.Program.size(); ++I)
      Cmd += " " + Opts.Program[I];
    note("running " + Cmd);
  }

  std::vector<char *> Argv;
  for (const std::string &A : Opts.Program)
    Argv.push_back(const_cast<char *>(A.c_str()));
  Argv.push_back(nullptr);

  // The child reports a failed exec through this pipe; a successful exec
  // closes it.
  int ExecPipe[2];
  if (pipe2(ExecPipe, O_CLOEXEC) != 0) {
    error(std::string("pipe: ") + std::strerror(errno));
    return ExitRecordError;
  }
  time_t Started = time(nullptr);
  std::fflush(nullptr);
  pid_t Pid = fork();
  if (Pid < 0) {
    error(std::string("fork: ") + std::strerror(errno));
    return ExitRecordError;
  }
  if (Pid == 0) {
    close(ExecPipe[0]);
    execv(Program->c_str(), Argv.data());
    int Err = errno;
    ssize_t Ignored = write(ExecPipe[1], &Err, sizeof(Err));
    (void)Ignored;
    _exit(127);
  }
  Child.store(Pid);
  installForwarding();
  close(ExecPipe[1]);
  int ExecErr = 0;
  ssize_t Got;
  do
    Got = read(ExecPipe[0], &ExecErr, sizeof(ExecErr));
  while (Got < 0 && errno == EINTR);
  close(ExecPipe[0]);

  int Status = 0;
  while (waitpid(Pid, &Status, 0) < 0) {
    if (errno != EINTR) {
      error(std::string("waitpid: ") + std::strerror(errno));
      return ExitRecordError;
    }
  }
  Child.store(0);
  if (Got == static_cast<ssize_t>(sizeof(ExecErr))) {
    error(*Program + ": cannot run it: " + std::strerror(ExecErr));
    return ExitRecordError;
  }

  int ExitCode = 0;
  if (WIFEXITED(Status)) {
    ExitCode = WEXITSTATUS(Status);
    if (Opts.Verbose || ExitCode != 0)
      note(Opts.Program[0] + " exited with code " + std::to_string(ExitCode));
  } else if (WIFSIGNALED(Status)) {
    int Sig = WTERMSIG(Status);
    ExitCode = 128 + Sig;
    note(Opts.Program[0] + " was killed by " + signalName(Sig) + " (signal " + std::to_string(Sig) +
         ")");
  }

  if (access(Output.c_str(), F_OK) != 0) {
    std::vector<std::string> Others = siblingProfiles(Output, Started);
    if (Others.empty()) {
      warning("no profile was written: " + Opts.Program[0] +
              " never initialized CUDA, or the collector could not start (run with -v)");
      return ExitCode;
    }
  } else {
    summarize(Shown, Output);
  }
  std::vector<std::string> Others = siblingProfiles(Output, Started);
  if (!Others.empty()) {
    std::string List;
    for (const std::string &O : Others)
      List += "\n  " + O;
    note(plural(static_cast<long long>(Others.size()), "more profile", "more profiles") +
         " from other processes of the run:" + List);
  }
  return ExitCode;
}

} // namespace cuda_advisor::driver
