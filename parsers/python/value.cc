#include "parsers/python/value.h"

#include <cstdlib>

namespace sagelint::py {

Store::Store() {
  values_.emplace_back();  // kUnknown at 0
  Value none;
  none.kind = VK::kNone;
  values_.push_back(none);
  none_ = 1;
  true_ = Intern(VK::kBool, "true", {});
  false_ = Intern(VK::kBool, "false", {});
}

bool Store::Spend(size_t bytes) {
  if (exhausted_) return false;
  bytes_ += bytes;
  if (bytes_ > max_bytes_ || values_.size() >= max_values_) exhausted_ = true;
  return !exhausted_;
}

void Store::GrantReserve() {
  if (reserve_granted_) return;
  reserve_granted_ = true;
  max_values_ = values_.size() + kReserveValues;
  max_bytes_ = bytes_ + kReserveBytes;
  exhausted_ = false;
}

VId Store::New(Value v) {
  size_t bytes = sizeof(Value) + v.text.size() + v.origin.size() + v.aux.size() + v.link.size() +
                 v.entries.size() * sizeof(Entry) + v.items.size() * sizeof(Ev) + v.alts.size() * sizeof(Alt);
  for (const Entry& e : v.entries) bytes += e.key.size();
  for (const Alt& a : v.alts) bytes += a.cond.size();
  if (!Spend(bytes)) return kUnknown;
  values_.push_back(std::move(v));
  return static_cast<VId>(values_.size() - 1);
}

VId Store::Intern(VK kind, std::string_view text, std::string_view origin) {
  if (text.size() > kMaxString) return kUnknown;
  auto it = interned_.find(Key{kind, origin, text});
  if (it != interned_.end()) return it->second;
  Value v;
  v.kind = kind;
  v.text = std::string(text);
  v.origin = std::string(origin);
  VId id = New(std::move(v));
  if (id != kUnknown) {
    const Value& stored = values_[static_cast<size_t>(id)];
    interned_.emplace(Key{kind, stored.origin, stored.text}, id);
  }
  return id;
}

VId Store::Str(std::string_view text, std::string_view origin) { return Intern(VK::kStr, text, origin); }
VId Store::Num(std::string_view text, std::string_view origin) { return Intern(VK::kNum, text, origin); }

VId Store::WithOrigin(VId v, std::string_view origin) {
  const Value& x = (*this)[v];
  if (!x.scalar() || !x.origin.empty()) return v;
  std::string text = x.text;
  return Intern(x.kind, text, origin);
}

VId Store::Opaque() {
  Value v;
  v.kind = VK::kOpaque;
  return New(std::move(v));
}

VId Store::OneOf(std::vector<Alt> alts) {
  std::vector<Alt> flat;
  for (Alt& a : alts) {
    if (a.value.v < 0) continue;
    const Value& x = (*this)[a.value.v];
    if (x.kind == VK::kOneOf) {
      for (const Alt& inner : x.alts) {
        Alt f = inner;
        if (!a.cond.empty()) f.cond = inner.cond.empty() ? a.cond : a.cond + " and " + inner.cond;
        flat.push_back(std::move(f));
      }
    } else {
      flat.push_back(std::move(a));
    }
  }
  // Merge equal alternatives (same value, or scalars of the same text).
  std::vector<Alt> out;
  for (Alt& a : flat) {
    bool merged = false;
    for (Alt& o : out) {
      const Value& x = (*this)[a.value.v];
      const Value& y = (*this)[o.value.v];
      if (o.value.v == a.value.v || (x.scalar() && y.scalar() && x.kind == y.kind && x.text == y.text) ||
          (x.kind == VK::kNone && y.kind == VK::kNone)) {
        merged = true;
        break;
      }
    }
    if (!merged) out.push_back(std::move(a));
  }
  if (out.empty()) return kUnknown;
  if (out.size() == 1) return out[0].value.v;
  if (out.size() > kMaxAlts) return kUnknown;
  // An alternative that is plainly unknown makes no condition worth stating
  // only when all are unknown; otherwise keep it so rules see the uncertainty.
  Value v;
  v.kind = VK::kOneOf;
  v.alts = std::move(out);
  return New(std::move(v));
}

std::optional<bool> Truth(const Store& s, VId id) {
  if (id < 0) return std::nullopt;
  const Value& v = s[id];
  switch (v.kind) {
    case VK::kStr:
      return !v.text.empty();
    case VK::kBool:
      return v.text == "true";
    case VK::kNum: {
      char* end = nullptr;
      double d = std::strtod(v.text.c_str(), &end);
      if (end == v.text.c_str()) return std::nullopt;
      return d != 0;
    }
    case VK::kNone:
      return false;
    case VK::kDict:
      if (!v.entries.empty()) return true;
      return v.complete ? std::optional<bool>(false) : std::nullopt;
    case VK::kList:
      if (!v.items.empty()) return true;
      return v.complete ? std::optional<bool>(false) : std::nullopt;
    case VK::kLibrary:
      if (v.role == Role::kObject) return true;
      return std::nullopt;
    case VK::kQual:
    case VK::kRecord:
    case VK::kFunction:
    case VK::kClass:
      return true;
    case VK::kOneOf: {
      std::optional<bool> all;
      for (const Alt& a : v.alts) {
        auto t = Truth(s, a.value.v);
        if (!t || (all && *all != *t)) return std::nullopt;
        all = t;
      }
      return all;
    }
    default:
      return std::nullopt;
  }
}

std::optional<bool> Equal(const Store& s, VId a, VId b, int depth) {
  if (a < 0 || b < 0 || depth > 8) return std::nullopt;
  const Value& x = s[a];
  const Value& y = s[b];
  if (x.kind == VK::kNone || y.kind == VK::kNone) {
    if (x.kind == VK::kNone && y.kind == VK::kNone) return true;
    if (x.scalar() || y.scalar() || x.kind == VK::kDict || y.kind == VK::kDict || x.kind == VK::kList ||
        y.kind == VK::kList) {
      return false;
    }
    return std::nullopt;
  }
  if (x.scalar() && y.scalar()) {
    if (x.kind == VK::kStr || y.kind == VK::kStr) return x.kind == y.kind && x.text == y.text;
    // Numbers and booleans compare by value (True == 1).
    auto num = [](const Value& v) -> double {
      if (v.kind == VK::kBool) return v.text == "true" ? 1 : 0;
      return std::strtod(v.text.c_str(), nullptr);
    };
    return num(x) == num(y);
  }
  if (x.kind == VK::kList && y.kind == VK::kList && x.complete && y.complete) {
    if (x.items.size() != y.items.size()) return false;
    for (size_t i = 0; i < x.items.size(); ++i) {
      auto e = Equal(s, x.items[i].v, y.items[i].v, depth + 1);
      if (!e || !*e) return e;
    }
    return true;
  }
  if ((x.scalar() && (y.kind == VK::kDict || y.kind == VK::kList)) ||
      (y.scalar() && (x.kind == VK::kDict || x.kind == VK::kList))) {
    return false;
  }
  return std::nullopt;
}

}  // namespace sagelint::py
