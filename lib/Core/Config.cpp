//===- Config.cpp - YAML configuration ------------------------------------===//
#include "cuda-advisor/Core/Config.h"
#include "cuda-advisor/Core/ConfigFiles.h"

#include "cuda-advisor/Core/FileIO.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/YAMLTraits.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace cuda_advisor {

void CheckOptions::set(StringRef CheckId, StringRef Name, StringRef Value) {
  Values[(CheckId + "." + Name).str()] = Value.str();
}

std::string CheckOptions::get(StringRef CheckId, StringRef Name, StringRef Default) const {
  auto It = Values.find((CheckId + "." + Name).str());
  return It == Values.end() ? Default.str() : It->second;
}

int64_t CheckOptions::getInt(StringRef CheckId, StringRef Name, int64_t Default) const {
  int64_t V;
  std::string S = get(CheckId, Name, "");
  if (S.empty() || StringRef(S).getAsInteger(0, V))
    return Default;
  return V;
}

double CheckOptions::getDouble(StringRef CheckId, StringRef Name, double Default) const {
  double V;
  std::string S = get(CheckId, Name, "");
  if (S.empty() || StringRef(S).getAsDouble(V))
    return Default;
  return V;
}

namespace {
struct RawConfig {
  std::optional<std::string> Checks;
  std::optional<std::string> HeaderFilter;
  std::optional<bool> SystemHeaders;
  std::optional<std::string> FailOn;
  std::map<std::string, std::string> CheckOptions;
};
} // namespace
} // namespace cuda_advisor

namespace llvm::yaml {
template <> struct CustomMappingTraits<std::map<std::string, std::string>> {
  static void inputOne(IO &Io, StringRef Key, std::map<std::string, std::string> &M) {
    Io.mapRequired(Key.str().c_str(), M[Key.str()]);
  }
  static void output(IO &Io, std::map<std::string, std::string> &M) {
    for (auto &KV : M)
      Io.mapRequired(KV.first.c_str(), KV.second);
  }
};
template <> struct MappingTraits<cuda_advisor::RawConfig> {
  static void mapping(IO &Io, cuda_advisor::RawConfig &C) {
    Io.mapOptional("Checks", C.Checks);
    Io.mapOptional("HeaderFilter", C.HeaderFilter);
    Io.mapOptional("SystemHeaders", C.SystemHeaders);
    Io.mapOptional("FailOn", C.FailOn);
    Io.mapOptional("CheckOptions", C.CheckOptions);
  }
};
} // namespace llvm::yaml

namespace cuda_advisor {

Expected<Config> loadConfigFile(StringRef Path, Config Base) {
  // A configuration is small: 16 MiB is far past any real one.
  auto Buf = readInputFile(Path, "config file", uint64_t(16) << 20);
  if (!Buf)
    return Buf.takeError();
  return loadConfigText((*Buf)->getBuffer(), Path, std::move(Base));
}

Expected<Config> loadConfigText(StringRef Text, StringRef Path, Config Base) {
  RawConfig Raw;
  std::string Diag;
  yaml::Input In(Text, nullptr,
                 [](const SMDiagnostic &D, void *Ctx) {
                   *static_cast<std::string *>(Ctx) = D.getMessage().str() +
                       " (line " + std::to_string(D.getLineNo()) + ")";
                 },
                 &Diag);
  In >> Raw;
  if (In.error())
    return createStringError(In.error(), "%s: invalid config file: %s", Path.str().c_str(),
                             Diag.empty() ? In.error().message().c_str() : Diag.c_str());
  if (Raw.Checks)
    Base.Checks = *Raw.Checks;
  if (Raw.HeaderFilter)
    Base.HeaderFilter = *Raw.HeaderFilter;
  if (Raw.SystemHeaders)
    Base.SystemHeaders = *Raw.SystemHeaders;
  if (Raw.FailOn) {
    auto S = parseSeverity(*Raw.FailOn);
    if (!S)
      return createStringError(inconvertibleErrorCode(),
                               "%s: FailOn must be note, warning or error, not '%s'",
                               Path.str().c_str(), Raw.FailOn->c_str());
    Base.FailOn = *S;
  }
  for (auto &KV : Raw.CheckOptions) {
    StringRef Key = KV.first;
    auto [Check, Name] = Key.rsplit('.');
    if (Name.empty())
      return createStringError(inconvertibleErrorCode(),
                               "%s: CheckOptions key '%s' is not of the form check-id.Option",
                               Path.str().c_str(), KV.first.c_str());
    Base.Options.set(Check, Name, KV.second);
  }
  return Base;
}

std::string dumpConfig(const Config &C) {
  RawConfig Raw;
  Raw.Checks = C.Checks;
  Raw.HeaderFilter = C.HeaderFilter;
  Raw.SystemHeaders = C.SystemHeaders;
  Raw.FailOn = severityName(C.FailOn).str();
  Raw.CheckOptions = C.Options.all();
  std::string Out;
  raw_string_ostream OS(Out);
  yaml::Output Y(OS);
  Y << Raw;
  return Out;
}

} // namespace cuda_advisor
