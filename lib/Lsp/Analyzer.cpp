//===- Analyzer.cpp - Analyzing one editor buffer --------------------------===//
#include "Analyzer.h"
#include "cuda-advisor/Checks/Registry.h"
#include "cuda-advisor/Frontend/Runner.h"
#include "cuda-advisor/Profile/Profile.h"
#include "cuda-advisor/Rank/Rank.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/DeclGroup.h"
#include "clang/Frontend/MultiplexConsumer.h"

namespace cuda_advisor::lsp {
namespace {

/// Forwards to the checks' consumer until Cancel is set; then parsing stops
/// at the next top-level declaration (ParseAST ends when HandleTopLevelDecl
/// returns false) and the checks never run.
class CancellableConsumer : public clang::MultiplexConsumer {
public:
  CancellableConsumer(std::unique_ptr<clang::ASTConsumer> Inner, const std::atomic<bool> &Cancel)
      : MultiplexConsumer(one(std::move(Inner))), Cancel(Cancel) {}
  bool HandleTopLevelDecl(clang::DeclGroupRef D) override {
    return !Cancel.load() && MultiplexConsumer::HandleTopLevelDecl(D);
  }
  void HandleTranslationUnit(clang::ASTContext &Ctx) override {
    if (!Cancel.load())
      MultiplexConsumer::HandleTranslationUnit(Ctx);
  }

private:
  static std::vector<std::unique_ptr<clang::ASTConsumer>>
  one(std::unique_ptr<clang::ASTConsumer> C) {
    std::vector<std::unique_ptr<clang::ASTConsumer>> V;
    V.push_back(std::move(C));
    return V;
  }
  const std::atomic<bool> &Cancel;
};

} // namespace

BufferResult analyzeBuffer(const ServerOptions &Opts, const std::string &Path,
                           const std::string &Text, const std::atomic<bool> &Cancel) {
  BufferResult Out;
  // A provider per buffer: buffers are analyzed on several threads, and the
  // files are small and may have changed since the last analysis.
  llvm::Expected<Config> Loaded = ConfigProvider(Opts.CommandLine).configFor(Path);
  if (!Loaded) {
    Out.Problem = llvm::toString(Loaded.takeError());
    return Out;
  }
  const Config Cfg = std::move(*Loaded);
  frontend::RunnerOptions RO;
  if (Opts.FixedFlags)
    RO.FixedFlags = Opts.FixedFlags;
  else
    RO.BuildPath = !Opts.CompileCommandsDir.empty() ? Opts.CompileCommandsDir
                                                    : frontend::findCompilationDatabaseDir(Path);
  Out.CompileCommandsDir = RO.BuildPath;
  RO.CudaPath = Opts.CudaPath;
  RO.Jobs = 1;
  RO.Setup.ResourceDir = Opts.ResourceDir;
  RO.Setup.ExtraArgs = Opts.ExtraArgs;
  RO.Setup.ExtraArgsBefore = Opts.ExtraArgsBefore;
  RO.Setup.DevicePass = Opts.DevicePass;
  RO.UnsavedFiles[Path] = Text;
  frontend::ConsumerFactory Factory = [&](clang::CompilerInstance &, frontend::FileResult &R,
                                          bool DevicePass) -> std::unique_ptr<clang::ASTConsumer> {
    return std::make_unique<CancellableConsumer>(
        checks::makeCheckConsumer(Cfg, R.Findings, Opts.ResourceDir, DevicePass), Cancel);
  };
  auto Results = frontend::runOnFiles({Path}, RO, Factory);
  if (Cancel.load()) {
    Out.Cancelled = true;
    if (!Results)
      llvm::consumeError(Results.takeError());
    return Out;
  }
  if (!Results) {
    Out.Problem = llvm::toString(Results.takeError());
    return Out;
  }
  frontend::FileResult &R = Results->front();
  Out.Messages = std::move(R.Messages);
  if (R.InputError) {
    Out.Problem = R.ErrorMessage;
    return Out;
  }
  Out.CompilerErrors = std::move(R.CompilerErrors);
  std::vector<Finding> Findings = std::move(R.Findings);
  sortAndUniqueFindings(Findings);
  if (Opts.Profile)
    rank::rankFindings(Findings, *Opts.Profile, Cfg, rank::RankOptions());
  // Only what the editor can show on this buffer: header findings belong to
  // their own buffers, runtime findings without a source to the report.
  for (Finding &F : Findings)
    if (F.Loc.File == Path)
      Out.Findings.push_back(std::move(F));
  sortFindings(Out.Findings);
  return Out;
}

} // namespace cuda_advisor::lsp
