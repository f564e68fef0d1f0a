//===- Csv.cpp - The CSV dialect of NVIDIA's profilers --------------------===//
#include "Csv.h"

#include "llvm/ADT/StringExtras.h"

using namespace llvm;

namespace cuda_advisor::profile::csv {

bool parse(StringRef Text, std::vector<Row> &Rows, std::vector<std::string> &Log,
           size_t FirstLine) {
  size_t Line = FirstLine;
  size_t I = 0, N = Text.size();
  while (I < N) {
    // A log line or a blank line: skip it whole.
    size_t Eol = Text.find('\n', I);
    if (Eol == StringRef::npos)
      Eol = N;
    StringRef Whole = Text.slice(I, Eol).rtrim('\r');
    if (Whole.trim().empty() || Whole.starts_with("==")) {
      if (!Whole.trim().empty())
        Log.push_back(Whole.str());
      I = Eol + 1;
      ++Line;
      continue;
    }
    Row R;
    R.Line = Line;
    R.Quoted = Text[I] == '"';
    std::string Field;
    bool Quoted = false, InQuotes = false;
    for (;;) {
      if (I >= N) {
        if (InQuotes)
          return false;
        R.Fields.push_back(std::move(Field));
        break;
      }
      char C = Text[I++];
      if (InQuotes) {
        if (C == '"') {
          if (I < N && Text[I] == '"') {
            Field += '"';
            ++I;
          } else {
            InQuotes = false;
          }
        } else {
          if (C == '\n')
            ++Line;
          Field += C;
        }
        continue;
      }
      if (C == '"' && !Quoted && Field.empty()) {
        InQuotes = Quoted = true;
        continue;
      }
      if (C == ',') {
        R.Fields.push_back(std::move(Field));
        Field.clear();
        Quoted = false;
        continue;
      }
      if (C == '\n' || C == '\r') {
        if (C == '\r' && I < N && Text[I] == '\n')
          ++I;
        ++Line;
        R.Fields.push_back(std::move(Field));
        break;
      }
      Field += C;
    }
    Rows.push_back(std::move(R));
  }
  return true;
}

std::optional<double> parseNumber(StringRef S) {
  S = S.trim();
  if (S.empty())
    return std::nullopt;
  std::string Clean;
  // Commas are thousands separators only between digit groups of three.
  size_t Comma = S.find(',');
  if (Comma != StringRef::npos) {
    SmallVector<StringRef, 8> Groups;
    S.split(Groups, ',');
    for (size_t G = 0; G < Groups.size(); ++G) {
      StringRef Part = Groups[G];
      if (G > 0) {
        StringRef Digits = Part.take_while(isDigit);
        if (Digits.size() != 3 || (Part.size() > 3 && Part[3] != '.'))
          return std::nullopt;
      }
      Clean += Part.str();
    }
    S = Clean;
  }
  double V;
  if (S.getAsDouble(V))
    return std::nullopt;
  return V;
}

bool parseDim3(StringRef S, uint32_t Out[3]) {
  S = S.trim();
  if (!S.consume_front("(") || !S.consume_back(")"))
    return false;
  SmallVector<StringRef, 3> Parts;
  S.split(Parts, ',');
  if (Parts.size() != 3)
    return false;
  for (size_t I = 0; I < 3; ++I)
    if (Parts[I].trim().getAsInteger(10, Out[I]))
      return false;
  return true;
}

} // namespace cuda_advisor::profile::csv
