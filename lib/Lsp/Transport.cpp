//===- Transport.cpp - JSON-RPC messages framed by Content-Length ----------===//
#include "Transport.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"

using namespace llvm;

namespace cuda_advisor::lsp {
namespace {

/// Messages larger than this are refused rather than allocated.
constexpr uint64_t MaxMessageBytes = uint64_t(1) << 30;

/// One header line without its line end; false at the end of the stream.
bool readLine(std::FILE *In, std::string &Line) {
  Line.clear();
  for (int C; (C = std::fgetc(In)) != EOF;) {
    if (C == '\n') {
      if (!Line.empty() && Line.back() == '\r')
        Line.pop_back();
      return true;
    }
    Line.push_back(static_cast<char>(C));
    if (Line.size() > 64 * 1024) // Not a header: keep memory bounded.
      Line.erase(0, 32 * 1024);
  }
  return !Line.empty();
}

} // namespace

RawMessage readMessage(std::FILE *In) {
  std::string Line;
  std::optional<uint64_t> Length;
  std::string Problem;
  bool SawHeader = false;
  while (true) {
    if (!readLine(In, Line))
      return {RawMessage::End, ""};
    if (Line.empty()) {
      if (!SawHeader)
        continue; // Blank lines between messages.
      break;
    }
    SawHeader = true;
    // After a message whose length was unusable, its body may run into the
    // next header on one line: resynchronize on the header's name.
    StringRef Header(Line);
    size_t At = Header.find_insensitive("content-length:");
    if (At != StringRef::npos && At != 0) {
      Header = Header.drop_front(At);
      Problem.clear();
    }
    auto [Name, Value] = Header.split(':');
    if (!Name.trim().equals_insensitive("Content-Length"))
      continue; // Content-Type and unknown headers are allowed.
    uint64_t N;
    if (Value.trim().getAsInteger(10, N)) {
      Problem = "Content-Length '" + Value.trim().str() + "' is not a number";
      continue;
    }
    if (N > MaxMessageBytes) {
      Problem = "Content-Length " + std::to_string(N) + " is larger than 1 GiB";
      continue;
    }
    Length = N;
    Problem.clear();
  }
  if (!Length)
    return {RawMessage::BadHeader, Problem.empty() ? "no Content-Length header" : Problem};
  std::string Body(*Length, '\0');
  if (*Length && std::fread(Body.data(), 1, *Length, In) != *Length)
    return {RawMessage::End, ""};
  return {RawMessage::Body, std::move(Body)};
}

void MessageWriter::send(json::Value Message) {
  std::string Text;
  raw_string_ostream(Text) << Message;
  std::lock_guard<std::mutex> Guard(Lock);
  OS << "Content-Length: " << Text.size() << "\r\n\r\n" << Text;
  OS.flush();
}

} // namespace cuda_advisor::lsp
