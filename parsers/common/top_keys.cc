#include "parsers/common/top_keys.h"

namespace sagelint {
namespace {

class JsonScanner {
 public:
  explicit JsonScanner(std::string_view s) : s_(s) {}

  std::optional<std::vector<std::string>> Keys() {
    SkipBlanks();
    if (!Eat('{')) return std::vector<std::string>{};  // an array or a scalar: no mapping
    std::vector<std::string> keys;
    SkipBlanks();
    if (Eat('}')) return keys;
    while (true) {
      SkipBlanks();
      std::string key;
      if (!String(&key)) return std::nullopt;
      keys.push_back(std::move(key));
      SkipBlanks();
      if (!Eat(':') || !SkipValue()) return std::nullopt;
      SkipBlanks();
      if (Eat(',')) continue;
      if (Eat('}')) return keys;
      return std::nullopt;
    }
  }

 private:
  void SkipBlanks() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\n' || s_[i_] == '\r')) ++i_;
  }
  bool Eat(char c) {
    if (i_ < s_.size() && s_[i_] == c) {
      ++i_;
      return true;
    }
    return false;
  }
  // A string at i_ (escapes kept as written); `out` may be null.
  bool String(std::string* out) {
    if (!Eat('"')) return false;
    while (i_ < s_.size()) {
      char c = s_[i_++];
      if (c == '"') return true;
      if (c == '\\') {
        if (i_ >= s_.size()) return false;
        if (out) *out += c;
        c = s_[i_++];
      }
      if (out) *out += c;
    }
    return false;
  }
  // Any value: nested containers are skipped by counting brackets outside strings.
  bool SkipValue() {
    SkipBlanks();
    if (i_ >= s_.size()) return false;
    if (s_[i_] == '"') return String(nullptr);
    if (s_[i_] != '{' && s_[i_] != '[') {
      while (i_ < s_.size() && s_[i_] != ',' && s_[i_] != '}' && s_[i_] != ']') ++i_;
      return i_ < s_.size();
    }
    size_t depth = 0;
    while (i_ < s_.size()) {
      char c = s_[i_];
      if (c == '"') {
        if (!String(nullptr)) return false;
        continue;
      }
      ++i_;
      if (c == '{' || c == '[') ++depth;
      if (c == '}' || c == ']') {
        if (depth == 0) return false;
        if (--depth == 0) return true;
      }
    }
    return false;
  }

  std::string_view s_;
  size_t i_ = 0;
};

// A YAML key at the start of `line`: plain or quoted, followed by ':' and a
// blank or the end of the line. nullopt when the line is not one.
std::optional<std::string> YamlKey(std::string_view line) {
  if (line.empty()) return std::nullopt;
  if (line[0] == '"' || line[0] == '\'') {
    size_t end = line.find(line[0], 1);
    if (end == std::string_view::npos || end + 1 >= line.size() || line[end + 1] != ':') return std::nullopt;
    return std::string(line.substr(1, end - 1));
  }
  for (size_t i = 0; i < line.size(); ++i) {
    if (line[i] == ':' && (i + 1 == line.size() || line[i + 1] == ' ' || line[i + 1] == '\t' || line[i + 1] == '\r')) {
      std::string_view key = line.substr(0, i);
      while (!key.empty() && (key.back() == ' ' || key.back() == '\t')) key.remove_suffix(1);
      return std::string(key);
    }
    if (line[i] == '#' && i > 0 && (line[i - 1] == ' ' || line[i - 1] == '\t')) return std::nullopt;
  }
  return std::nullopt;
}

std::optional<std::vector<std::string>> YamlKeys(std::string_view text) {
  std::vector<std::string> keys;
  bool mapping = false;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    if (line.empty() || line[0] == ' ' || line[0] == '\t' || line[0] == '\r' || line[0] == '#') continue;
    if (line.rfind("---", 0) == 0 || line.rfind("...", 0) == 0 || line[0] == '%') continue;
    if (line[0] == '{' || line[0] == '[') return std::nullopt;  // flow style
    if (line[0] == '-' && (line.size() == 1 || line[1] == ' ')) {
      if (!mapping) return std::vector<std::string>{};  // a sequence document
      return std::nullopt;
    }
    auto key = YamlKey(line);
    if (!key) return std::nullopt;  // a plain scalar continued at column 0, or something else
    mapping = true;
    keys.push_back(std::move(*key));
  }
  return keys;
}

}  // namespace

std::optional<std::vector<std::string>> TopLevelKeys(std::string_view text) {
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
  size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return std::vector<std::string>{};
  if (text[first] == '{' || text[first] == '[') {
    auto keys = JsonScanner(text).Keys();
    if (keys) return keys;
  }
  return YamlKeys(text);
}

}  // namespace sagelint
