//===- Server.cpp - `cuda-advisor lsp`: a language server ------------------===//
//
// The main thread reads messages and answers requests; analyses run on the
// Scheduler's workers and publish their diagnostics themselves, unless the
// document changed or closed meanwhile (a stale version's result is dropped).
//
//===----------------------------------------------------------------------===//
#include "cuda-advisor/Lsp/Server.h"
#include "Analyzer.h"
#include "Protocol.h"
#include "Scheduler.h"
#include "Transport.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Threading.h"

#include <map>
#include <mutex>

using namespace llvm;

namespace cuda_advisor::lsp {
namespace {

/// JSON-RPC 2.0 and LSP error codes.
enum ErrorCode : int {
  ParseError = -32700,
  InvalidRequest = -32600,
  MethodNotFound = -32601,
  InvalidParams = -32602,
  ServerNotInitialized = -32002,
};

struct Document {
  std::string Path;
  std::string Text;
  int64_t Version = 0;
  /// The findings published for PublishedVersion (-1: none yet), with the
  /// text they were computed on (positions are converted with it).
  std::vector<Finding> Findings;
  std::shared_ptr<const LineMap> Map;
  int64_t PublishedVersion = -1;
};

class Server {
public:
  Server(const ServerOptions &Opts, raw_ostream &Out, raw_ostream &Log)
      : Opts(Opts), Writer(Out), Log(Log),
        Workers(Opts.Jobs ? Opts.Jobs : hardware_concurrency().compute_thread_count()) {
    if (!Opts.DocsBaseUri.empty()) {
      Style.DocsBaseUri = Opts.DocsBaseUri;
    } else if (!Opts.DocsDir.empty()) {
      SmallString<256> Dir(Opts.DocsDir);
      sys::fs::make_absolute(Dir);
      Style.DocsBaseUri = pathToUri(Dir) + "/";
    }
  }

  /// False once `exit` was received.
  bool handle(const RawMessage &M);
  bool shutdownReceived() const { return ShutdownReceived; }

private:
  void reply(const json::Value &Id, json::Value Result) {
    Writer.send(json::Object{{"jsonrpc", "2.0"}, {"id", Id}, {"result", std::move(Result)}});
  }
  void replyError(const json::Value &Id, int Code, const Twine &Message) {
    Writer.send(json::Object{{"jsonrpc", "2.0"},
                             {"id", Id},
                             {"error", json::Object{{"code", Code}, {"message", Message.str()}}}});
  }
  void notify(StringRef Method, json::Value Params) {
    Writer.send(json::Object{{"jsonrpc", "2.0"}, {"method", Method}, {"params", std::move(Params)}});
  }
  void logToClient(int Type, const Twine &Message) {
    notify("window/logMessage", json::Object{{"type", Type}, {"message", Message.str()}});
  }
  void log(const Twine &Message) {
    std::lock_guard<std::mutex> Guard(LogLock);
    Log << "cuda-advisor lsp: " << Message << "\n";
    Log.flush();
  }

  /// Answers the request, with a result or an error.
  void onRequest(StringRef Method, const json::Value &Id, const json::Object *Params);
  void onNotification(StringRef Method, const json::Object *Params);

  json::Value initializeResult();
  void didOpen(const json::Object &Params);
  void didChange(const json::Object &Params);
  void didSave(const json::Object &Params);
  void didClose(const json::Object &Params);
  std::optional<json::Value> codeAction(const json::Object &Params, std::string &Error);
  std::optional<json::Value> hover(const json::Object &Params, std::string &Error);

  void analyze(const std::string &Uri);
  void publish(const std::string &Uri, const std::string &Path, int64_t Version,
               BufferResult Result, const std::string &Text);

  const ServerOptions &Opts;
  MessageWriter Writer;
  raw_ostream &Log;
  std::mutex LogLock;
  DiagnosticStyle Style;
  bool Initialized = false;
  bool ShutdownReceived = false;

  std::mutex DocsLock; ///< Guards Docs: workers publish into it.
  std::map<std::string, Document> Docs; ///< By URI.
  Scheduler Workers; ///< Last: destroyed (joined) first, while the rest is alive.
};

bool Server::handle(const RawMessage &M) {
  if (M.What == RawMessage::BadHeader) {
    log("bad message header: " + M.Text);
    replyError(nullptr, ParseError, "bad message header: " + M.Text);
    return true;
  }
  Expected<json::Value> Parsed = json::parse(M.Text);
  if (!Parsed) {
    std::string Why = toString(Parsed.takeError());
    log("not JSON: " + Why);
    replyError(nullptr, ParseError, "the message is not JSON: " + Why);
    return true;
  }
  const json::Object *Msg = Parsed->getAsObject();
  if (!Msg) {
    replyError(nullptr, InvalidRequest, "a message must be a JSON object");
    return true;
  }
  const json::Value *Id = Msg->get("id");
  std::optional<StringRef> Method = Msg->getString("method");
  if (!Method) {
    if (Id && (Msg->get("result") || Msg->get("error")))
      return true; // A response to a request of ours: we send none that wait.
    replyError(Id ? *Id : json::Value(nullptr), InvalidRequest, "the message has no method");
    return true;
  }
  if (Id && Id->kind() != json::Value::String && Id->kind() != json::Value::Number) {
    replyError(nullptr, InvalidRequest, "a request id must be a number or a string");
    return true;
  }
  const json::Value *ParamsValue = Msg->get("params");
  const json::Object *Params = ParamsValue ? ParamsValue->getAsObject() : nullptr;
  if (ParamsValue && !Params && ParamsValue->kind() != json::Value::Null) {
    if (Id)
      replyError(*Id, InvalidParams, "params of '" + *Method + "' must be an object");
    return true;
  }
  if (!Id) {
    if (*Method == "exit")
      return false;
    onNotification(*Method, Params);
    return true;
  }
  onRequest(*Method, *Id, Params);
  return true;
}

void Server::onRequest(StringRef Method, const json::Value &Id, const json::Object *Params) {
  if (Method == "initialize") {
    if (Initialized) {
      replyError(Id, InvalidRequest, "initialize was already received");
      return;
    }
    Initialized = true;
    reply(Id, initializeResult());
    return;
  }
  if (!Initialized) {
    replyError(Id, ServerNotInitialized, "'" + Method + "' before initialize");
    return;
  }
  if (ShutdownReceived) {
    replyError(Id, InvalidRequest, "'" + Method + "' after shutdown");
    return;
  }
  if (Method == "shutdown") {
    ShutdownReceived = true;
    reply(Id, nullptr);
    return;
  }
  std::string Error;
  std::optional<json::Value> Result;
  if (Method == "textDocument/codeAction")
    Result = Params ? codeAction(*Params, Error) : std::nullopt;
  else if (Method == "textDocument/hover")
    Result = Params ? hover(*Params, Error) : std::nullopt;
  else {
    replyError(Id, MethodNotFound, "method '" + Method + "' is not supported");
    return;
  }
  if (!Result) {
    replyError(Id, InvalidParams,
               Error.empty() ? "'" + Method + "' needs params" : Twine(Error));
    return;
  }
  reply(Id, std::move(*Result));
}

void Server::onNotification(StringRef Method, const json::Object *Params) {
  if (!Initialized || ShutdownReceived)
    return; // The protocol says to drop notifications then.
  if (Method == "initialized" || Method.starts_with("$/"))
    return;
  if (!Params) {
    log("'" + Method + "' without params ignored");
    return;
  }
  if (Method == "textDocument/didOpen")
    didOpen(*Params);
  else if (Method == "textDocument/didChange")
    didChange(*Params);
  else if (Method == "textDocument/didSave")
    didSave(*Params);
  else if (Method == "textDocument/didClose")
    didClose(*Params);
  else
    log("notification '" + Method + "' ignored");
}

json::Value Server::initializeResult() {
  return json::Object{
      {"capabilities",
       json::Object{
           {"textDocumentSync", json::Object{{"openClose", true},
                                             {"change", 1}, // Full text.
                                             {"save", json::Object{{"includeText", false}}}}},
           {"codeActionProvider", json::Object{{"codeActionKinds", json::Array{"quickfix"}}}},
           {"hoverProvider", true},
       }},
      {"serverInfo", json::Object{{"name", "cuda-advisor"}, {"version", CUDA_ADVISOR_VERSION}}},
  };
}

void Server::didOpen(const json::Object &Params) {
  const json::Object *Doc = Params.getObject("textDocument");
  std::optional<StringRef> Uri = Doc ? Doc->getString("uri") : std::nullopt;
  std::optional<StringRef> Text = Doc ? Doc->getString("text") : std::nullopt;
  if (!Uri || !Text) {
    log("didOpen without textDocument.uri and .text ignored");
    return;
  }
  Expected<std::string> Path = uriToPath(*Uri);
  if (!Path) {
    logToClient(2, "cuda-advisor: " + toString(Path.takeError()));
    return;
  }
  {
    std::lock_guard<std::mutex> Guard(DocsLock);
    Document &D = Docs[Uri->str()];
    D = Document();
    D.Path = *Path;
    D.Text = Text->str();
    D.Version = Doc->getInteger("version").value_or(0);
  }
  analyze(Uri->str());
}

void Server::didChange(const json::Object &Params) {
  const json::Object *Doc = Params.getObject("textDocument");
  const json::Array *Changes = Params.getArray("contentChanges");
  std::optional<StringRef> Uri = Doc ? Doc->getString("uri") : std::nullopt;
  if (!Uri || !Changes) {
    log("didChange without textDocument.uri and contentChanges ignored");
    return;
  }
  {
    std::lock_guard<std::mutex> Guard(DocsLock);
    auto It = Docs.find(Uri->str());
    if (It == Docs.end()) {
      log("didChange of a document that is not open: " + *Uri);
      return;
    }
    // Full synchronization: the last change with no range is the text.
    for (const json::Value &C : *Changes) {
      const json::Object *O = C.getAsObject();
      if (!O || O->get("range")) {
        log("didChange with a range ignored (the server asked for whole texts)");
        continue;
      }
      if (std::optional<StringRef> Text = O->getString("text"))
        It->second.Text = Text->str();
    }
    It->second.Version = Doc->getInteger("version").value_or(It->second.Version + 1);
  }
  analyze(Uri->str());
}

void Server::didSave(const json::Object &Params) {
  const json::Object *Doc = Params.getObject("textDocument");
  std::optional<StringRef> Uri = Doc ? Doc->getString("uri") : std::nullopt;
  if (!Uri)
    return;
  {
    std::lock_guard<std::mutex> Guard(DocsLock);
    auto It = Docs.find(Uri->str());
    if (It == Docs.end())
      return;
    if (std::optional<StringRef> Text = Params.getString("text"))
      It->second.Text = Text->str();
  }
  analyze(Uri->str());
}

void Server::didClose(const json::Object &Params) {
  const json::Object *Doc = Params.getObject("textDocument");
  std::optional<StringRef> Uri = Doc ? Doc->getString("uri") : std::nullopt;
  if (!Uri)
    return;
  {
    std::lock_guard<std::mutex> Guard(DocsLock);
    if (!Docs.erase(Uri->str()))
      return;
  }
  // A running analysis of it is cancelled; its result would be dropped anyway.
  Workers.schedule(Uri->str(), [](const CancelFlag &) {});
  notify("textDocument/publishDiagnostics",
         json::Object{{"uri", *Uri}, {"diagnostics", json::Array()}});
}

void Server::analyze(const std::string &Uri) {
  std::string Path, Text;
  int64_t Version;
  {
    std::lock_guard<std::mutex> Guard(DocsLock);
    const Document &D = Docs.at(Uri);
    Path = D.Path;
    Text = D.Text;
    Version = D.Version;
  }
  Workers.schedule(Uri, [this, Uri, Path, Text, Version](const CancelFlag &Cancel) {
    {
      // Superseded while it waited (a change and a save in a row).
      std::lock_guard<std::mutex> Guard(DocsLock);
      auto It = Docs.find(Uri);
      if (It == Docs.end() || It->second.Version != Version || It->second.Text != Text)
        return;
    }
    log("analyzing " + Path + " (version " + Twine(Version) + ")");
    BufferResult R = analyzeBuffer(Opts, Path, Text, *Cancel);
    if (R.Cancelled) {
      log("analysis of " + Path + " (version " + Twine(Version) + ") cancelled by a newer edit");
      return;
    }
    publish(Uri, Path, Version, std::move(R), Text);
  });
}

void Server::publish(const std::string &Uri, const std::string &Path, int64_t Version,
                     BufferResult R, const std::string &Text) {
  for (const std::string &M : R.Messages)
    if (M != "@bundled")
      log(Path + ": " + M);
  if (!R.Problem.empty())
    logToClient(1, "cuda-advisor: " + Path + ": " + R.Problem);
  if (!R.CompilerErrors.empty())
    logToClient(2, "cuda-advisor: " + Path + " has compiler errors; findings come from what "
                   "Clang could recover:\n" + R.CompilerErrors);
  auto Map = std::make_shared<const LineMap>(Text);
  json::Array Diagnostics;
  for (const Finding &F : R.Findings)
    Diagnostics.push_back(toDiagnostic(F, *Map, Style));
  {
    // Under the lock: a newer version's result cannot be published first
    // and then overwritten by this one.
    std::lock_guard<std::mutex> Guard(DocsLock);
    auto It = Docs.find(Uri);
    if (It == Docs.end() || It->second.Version != Version || It->second.Text != Text) {
      log("dropped the result of " + Path + " version " + Twine(Version) + ": it changed");
      return;
    }
    It->second.Findings = std::move(R.Findings);
    It->second.Map = Map;
    It->second.PublishedVersion = Version;
    log("published " + Twine(Diagnostics.size()) + " diagnostics for " + Path + " (version " +
        Twine(Version) + ")");
    notify("textDocument/publishDiagnostics", json::Object{{"uri", Uri},
                                                           {"version", Version},
                                                           {"diagnostics", std::move(Diagnostics)}});
  }
}

/// The document and range of a codeAction or hover request.
struct Target {
  std::string Uri;
  Range Where;
};

std::optional<Target> targetOf(const json::Object &Params, bool IsRange, std::string &Error) {
  const json::Object *Doc = Params.getObject("textDocument");
  std::optional<StringRef> Uri = Doc ? Doc->getString("uri") : std::nullopt;
  if (!Uri) {
    Error = "missing textDocument.uri";
    return std::nullopt;
  }
  Target T{Uri->str(), {}};
  if (IsRange) {
    const json::Object *R = Params.getObject("range");
    std::optional<Position> S = R ? positionFromJson(R->get("start")) : std::nullopt;
    std::optional<Position> E = R ? positionFromJson(R->get("end")) : std::nullopt;
    if (!S || !E) {
      Error = "missing or invalid range";
      return std::nullopt;
    }
    T.Where = {*S, *E};
    return T;
  }
  std::optional<Position> P = positionFromJson(Params.get("position"));
  if (!P) {
    Error = "missing or invalid position";
    return std::nullopt;
  }
  T.Where = {*P, *P};
  return T;
}

bool overlaps(const Range &A, const Range &B) {
  return A.Start <= B.End && B.Start <= A.End;
}

std::optional<json::Value> Server::codeAction(const json::Object &Params, std::string &Error) {
  std::optional<Target> T = targetOf(Params, /*IsRange=*/true, Error);
  if (!T)
    return std::nullopt;
  json::Array Actions;
  std::lock_guard<std::mutex> Guard(DocsLock);
  auto It = Docs.find(T->Uri);
  if (It == Docs.end() || !It->second.Map)
    return json::Value(std::move(Actions));
  const Document &D = It->second;
  for (const Finding &F : D.Findings) {
    if (F.Fixes.empty() || !overlaps(D.Map->rangeOf(F), T->Where))
      continue;
    std::map<std::string, json::Array> Edits; // By URI.
    for (const FixIt &Fix : F.Fixes) {
      if (Fix.Range.Begin.File != D.Path)
        continue; // Other files' text is not what the editor shows.
      Edits[pathToUri(Fix.Range.Begin.File)].push_back(
          json::Object{{"range", toJson(D.Map->rangeOf(Fix.Range))}, {"newText", Fix.Replacement}});
    }
    if (Edits.empty())
      continue;
    json::Object Changes;
    for (auto &[Uri, List] : Edits)
      Changes[Uri] = std::move(List);
    Actions.push_back(json::Object{
        {"title", "apply the fix-it of " + F.CheckId},
        {"kind", "quickfix"},
        {"isPreferred", true},
        {"diagnostics", json::Array{toDiagnostic(F, *D.Map, Style)}},
        {"edit", json::Object{{"changes", std::move(Changes)}}}});
  }
  return json::Value(std::move(Actions));
}

std::optional<json::Value> Server::hover(const json::Object &Params, std::string &Error) {
  std::optional<Target> T = targetOf(Params, /*IsRange=*/false, Error);
  if (!T)
    return std::nullopt;
  std::lock_guard<std::mutex> Guard(DocsLock);
  auto It = Docs.find(T->Uri);
  if (It == Docs.end() || !It->second.Map)
    return json::Value(nullptr);
  const Document &D = It->second;
  std::string Text;
  std::optional<Range> Where;
  for (const Finding &F : D.Findings) {
    Range R = D.Map->rangeOf(F);
    if (!overlaps(R, T->Where))
      continue;
    if (!Text.empty())
      Text += "\n\n---\n\n";
    Text += hoverText(F);
    if (!Where)
      Where = R;
  }
  if (Text.empty())
    return json::Value(nullptr);
  return json::Object{{"contents", json::Object{{"kind", "markdown"}, {"value", Text}}},
                      {"range", toJson(*Where)}};
}

} // namespace

int runServer(const ServerOptions &Opts, std::FILE *In, raw_ostream &Out, raw_ostream &Log) {
  Server S(Opts, Out, Log);
  while (true) {
    RawMessage M = readMessage(In);
    if (M.What == RawMessage::End)
      break;
    if (!S.handle(M))
      return S.shutdownReceived() ? 0 : 1;
  }
  return S.shutdownReceived() ? 0 : 1;
}

} // namespace cuda_advisor::lsp
