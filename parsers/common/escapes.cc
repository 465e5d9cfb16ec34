#include "parsers/common/escapes.h"

namespace sagelint {

std::string DecodeEscapes(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '\\' || i + 1 == s.size()) {
      out += s[i];
      continue;
    }
    char e = s[++i];
    switch (e) {
      case 'n':
        out += '\n';
        break;
      case 't':
        out += '\t';
        break;
      case 'r':
        out += '\r';
        break;
      case '\\':
        out += '\\';
        break;
      case '\'':
        out += '\'';
        break;
      case '"':
        out += '"';
        break;
      case '\n':
        break;
      default:
        out += '\\';
        out += e;
    }
  }
  return out;
}

}  // namespace sagelint
