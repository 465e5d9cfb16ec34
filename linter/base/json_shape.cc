#include "linter/base/json_shape.h"

#include <nlohmann/json.hpp>
#include <set>
#include <vector>

namespace sagelint {
namespace {

class ShapeCheck : public nlohmann::json_sax<nlohmann::json> {
 public:
  ShapeCheck(int max_depth, bool unique_keys) : max_depth_(max_depth), unique_keys_(unique_keys) {}

  bool null() override { return Value(); }
  bool boolean(bool) override { return Value(); }
  bool number_integer(number_integer_t) override { return Value(); }
  bool number_unsigned(number_unsigned_t) override { return Value(); }
  bool number_float(number_float_t, const string_t&) override { return Value(); }
  bool string(string_t&) override { return Value(); }
  bool binary(binary_t&) override { return Value(); }
  bool start_object(std::size_t) override { return Open(true); }
  bool key(string_t& k) override {
    Frame& f = frames_.back();
    f.key = k;
    if (unique_keys_ && !f.keys.insert(k).second) {
      error_ = "duplicate key \"" + Shown(k) + "\"" + (frames_.size() > 1 ? " in " + Path(frames_.size() - 1) : "");
      return false;
    }
    return true;
  }
  bool end_object() override { return Close(); }
  bool start_array(std::size_t) override { return Open(false); }
  bool end_array() override { return Close(); }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override {
    return false;  // not JSON: left to the parser that reads it
  }

  const std::string& error() const { return error_; }

 private:
  struct Frame {
    bool object = false;
    std::string key;      // the current member's (objects)
    size_t elements = 0;  // elements begun so far (arrays)
    std::set<std::string> keys;
  };

  static std::string Shown(const std::string& s) { return s.size() > 64 ? s.substr(0, 64) + "…" : s; }

  // Where the first `n` frames lead: findings[3].fingerprint
  std::string Path(size_t n) const {
    std::string out;
    for (size_t i = 0; i < n && i < frames_.size(); ++i) {
      const Frame& f = frames_[i];
      if (f.object) {
        out += (out.empty() ? "" : ".") + Shown(f.key);
      } else {
        out += "[" + std::to_string(f.elements == 0 ? 0 : f.elements - 1) + "]";
      }
    }
    return out;
  }

  bool Value() {
    if (!frames_.empty() && !frames_.back().object) ++frames_.back().elements;
    return true;
  }

  bool Open(bool object) {
    Value();
    if (static_cast<int>(frames_.size()) >= max_depth_) {
      error_ = "nested deeper than " + std::to_string(max_depth_) + " levels" +
               (frames_.empty() ? "" : " at " + Path(frames_.size()));
      return false;
    }
    frames_.push_back(Frame{object, {}, 0, {}});
    return true;
  }

  bool Close() {
    frames_.pop_back();
    return true;
  }

  int max_depth_;
  bool unique_keys_;
  std::vector<Frame> frames_;
  std::string error_;
};

}  // namespace

bool CheckJsonShape(std::string_view text, int max_depth, bool unique_keys, std::string* error) {
  ShapeCheck check(max_depth, unique_keys);
  nlohmann::json::sax_parse(text, &check);
  if (check.error().empty()) return true;
  *error = check.error();
  return false;
}

}  // namespace sagelint
