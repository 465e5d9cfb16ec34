// Strings: literals and f-strings (with the links that library values and
// shared names carry), `+` on strings and lists, `%` formatting and str.format().
#include <algorithm>
#include <cctype>
#include <charconv>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <set>

#include "parsers/common/escapes.h"
#include "parsers/common/tree_sitter.h"
#include "parsers/python/analyzer.h"

namespace sagelint::py {

VId Analyzer::StringValue(TSNode n) {
  bool raw = false, fstring = false;
  std::string text, link;
  bool known = true, linked = false;
  int parts = 0;           // content pieces and interpolations
  VId only = kUnbound;     // the value of an f-string that is one plain interpolation
  std::vector<Ev> pieces;  // a program run: the pieces, for a library value among them
  bool foreign = false;
  for (TSNode c : Kids(n)) {
    switch (g_.Kind(c)) {
      case N::kStringStart: {
        std::string_view prefix = T(c);
        raw = prefix.find_first_of("rR") != std::string_view::npos;
        fstring = prefix.find_first_of("fF") != std::string_view::npos;
        if (prefix.find_first_of("bB") != std::string_view::npos) return kUnknown;
        break;
      }
      case N::kStringContent: {
        std::string piece = raw ? std::string(T(c)) : DecodeEscapes(T(c));
        if (fstring) {
          std::string unescaped;
          for (size_t k = 0; k < piece.size(); ++k) {
            unescaped += piece[k];
            if ((piece[k] == '{' || piece[k] == '}') && k + 1 < piece.size() && piece[k + 1] == piece[k]) ++k;
          }
          piece = std::move(unescaped);
        }
        if (!store_.Spend(piece.size())) return kUnknown;
        if (eager_) pieces.push_back(Ev{store_.Str(piece), c});
        text += piece;
        link += piece;
        if (!piece.empty()) ++parts;
        break;
      }
      case N::kInterpolation: {
        VId part = Eval(g_.Field(c, g_.f_expression));
        bool plain =
            ts_node_is_null(g_.Field(c, g_.f_format_specifier)) && ts_node_is_null(g_.Field(c, g_.f_type_conversion));
        ++parts;
        only = plain ? part : kUnbound;
        if (eager_) {
          pieces.push_back(Ev{plain ? part : kUnknown, c});
          VK k = store_.Kind(part);
          foreign = foreign || (plain && (Joined(part) || k == VK::kQual));
        }
        const Value& x = V(part);
        if (x.scalar() && plain) {
          text += PyText(x);
          link += PyText(x);
        } else if (std::string key = LinkOf(part); !key.empty()) {
          known = false;
          linked = true;
          link += key;
        } else {
          known = false;
          link += kUnknownText;
        }
        break;
      }
      default:
        break;
    }
    if (text.size() > Store::kMaxString) return kUnknown;
  }
  if (known) return store_.Str(text);
  if (foreign || (eager_ && !text.empty())) {
    // A library value inside an f-string (a CDK attribute), or a program's
    // known text around an unknown part: the library's to join.
    VId joined = kUnknown;
    for (Library* lib : libraries_) {
      if (lib->Join(*this, pieces, &joined)) return joined;
    }
  }
  // f"{name}" is the (string) value of `name` itself: it keeps its identity.
  if (parts == 1 && only != kUnbound && store_.Kind(only) == VK::kOpaque) return only;
  if (!linked) return kUnknown;
  Value v;
  v.kind = VK::kOpaque;
  v.link = std::move(link);
  return store_.New(std::move(v));
}

// `a + b`: strings, numbers, lists; conditional operands give a conditional
// result; the links of library values and shared names survive in the link text.
VId Analyzer::Concat(VId a, VId b) {
  const Value& x = V(a);
  const Value& y = V(b);
  if (eager_ && (Joined(a) || Joined(b) || x.kind == VK::kQual || y.kind == VK::kQual)) {
    VId joined = kUnknown;
    std::vector<Ev> pieces{Ev{a, {}}, Ev{b, {}}};
    for (Library* lib : libraries_) {
      if (lib->Join(*this, pieces, &joined)) return joined;
    }
    if (Joined(a) || Joined(b)) return kUnknown;
  }
  if (x.kind == VK::kOneOf || y.kind == VK::kOneOf) {
    std::vector<Alt> xs = x.kind == VK::kOneOf ? x.alts : std::vector<Alt>{{std::string(), Ev{a, {}}}};
    std::vector<Alt> ys = y.kind == VK::kOneOf ? y.alts : std::vector<Alt>{{std::string(), Ev{b, {}}}};
    if (xs.size() * ys.size() > Store::kMaxAlts) return kUnknown;
    std::vector<Alt> out;
    for (const Alt& p : xs) {
      for (const Alt& q : ys) {
        std::string cond = p.cond.empty() ? q.cond : q.cond.empty() ? p.cond : p.cond + " and " + q.cond;
        out.push_back({cond, Ev{Concat(p.value.v, q.value.v), {}}});
      }
    }
    return store_.OneOf(std::move(out));
  }
  if (x.kind == VK::kStr && y.kind == VK::kStr) {
    if (x.text.size() + y.text.size() > Store::kMaxString || !store_.Spend(x.text.size() + y.text.size())) {
      return kUnknown;
    }
    return store_.Str(x.text + y.text);
  }
  if (x.kind == VK::kNum && y.kind == VK::kNum) return Arith("+", a, b);
  if (x.kind == VK::kList && y.kind == VK::kList) {
    if (x.items.size() + y.items.size() > Store::kMaxItems) return kUnknown;
    Value l;
    l.kind = VK::kList;
    l.complete = x.complete && y.complete;
    l.items = x.items;
    l.items.insert(l.items.end(), y.items.begin(), y.items.end());
    return store_.New(std::move(l));
  }
  // A string with a part that links (a library's value, a shared name): the link.
  std::string x_link = x.kind == VK::kStr ? std::string() : LinkOf(a);
  std::string y_link = y.kind == VK::kStr ? std::string() : LinkOf(b);
  if (!x_link.empty() || !y_link.empty()) {
    std::string link;
    link += x.kind == VK::kStr ? x.text : x_link.empty() ? std::string(kUnknownText) : x_link;
    link += y.kind == VK::kStr ? y.text : y_link.empty() ? std::string(kUnknownText) : y_link;
    if (link.size() > Store::kMaxString) return kUnknown;
    Value v;
    v.kind = VK::kOpaque;
    v.link = std::move(link);
    return store_.New(std::move(v));
  }
  return kUnknown;
}

VId Analyzer::Percent(VId fmt, VId args) {
  const Value& f = V(fmt);
  const Value& a = V(args);
  std::vector<VId> values;
  if (a.kind == VK::kList) {
    if (!a.complete) return kUnknown;
    for (const Ev& e : a.items) values.push_back(e.v);
  } else {
    values.push_back(args);
  }
  std::string out;
  size_t next = 0;
  for (size_t i = 0; i < f.text.size(); ++i) {
    if (f.text[i] != '%') {
      out += f.text[i];
      continue;
    }
    if (i + 1 >= f.text.size()) return kUnknown;
    char spec = f.text[++i];
    if (spec == '%') {
      out += '%';
      continue;
    }
    if (spec != 's' && spec != 'd' && spec != 'i') return kUnknown;
    if (next >= values.size()) return kUnknown;
    const Value& v = V(values[next++]);
    if (!v.scalar()) return kUnknown;
    if (spec != 's' && v.kind != VK::kNum) return kUnknown;
    out += PyText(v);
    if (out.size() > Store::kMaxString) return kUnknown;
  }
  if (next != values.size()) return kUnknown;
  return store_.Str(out);
}

// "ml.{}.{size}".format(...): positional and named fields without format specs.
VId Analyzer::Format(VId fmt, const Args& args) {
  const Value& f = V(fmt);
  if (args.unknown_spread) return kUnknown;
  std::string out;
  size_t auto_index = 0;
  std::vector<Ev> pieces;  // a program run: text and values, when a value is not text
  size_t mark = 0;         // where the text after the last such value starts in `out`
  for (size_t i = 0; i < f.text.size(); ++i) {
    char c = f.text[i];
    if (c == '}' && i + 1 < f.text.size() && f.text[i + 1] == '}') {
      out += '}';
      ++i;
      continue;
    }
    if (c != '{') {
      out += c;
      continue;
    }
    if (i + 1 < f.text.size() && f.text[i + 1] == '{') {
      out += '{';
      ++i;
      continue;
    }
    size_t close = f.text.find('}', i);
    if (close == std::string::npos) return kUnknown;
    std::string field = f.text.substr(i + 1, close - i - 1);
    i = close;
    if (field.find_first_of(":!.[") != std::string::npos) return kUnknown;
    VId v = kUnknown;
    if (field.empty()) {
      if (auto_index >= args.positional.size()) return kUnknown;
      v = args.positional[auto_index++].v;
    } else if (IsInteger(field)) {
      size_t k = std::strtoul(field.c_str(), nullptr, 10);
      if (k >= args.positional.size()) return kUnknown;
      v = args.positional[k].v;
    } else {
      bool found = false;
      for (const auto& [name, e] : args.keywords) {
        if (name == field) {
          v = e.v;
          found = true;
        }
      }
      if (!found) return kUnknown;
    }
    const Value& x = V(v);
    if (!x.scalar()) {
      // A program run: the library joins the known text and what it cannot know.
      if (!eager_) return kUnknown;
      pieces.push_back(Ev{store_.Str(out.substr(mark)), {}});
      pieces.push_back(Ev{v, {}});
      mark = out.size();
      continue;
    }
    out += PyText(x);
    if (out.size() > Store::kMaxString) return kUnknown;
  }
  if (pieces.empty()) return store_.Str(out);
  pieces.push_back(Ev{store_.Str(out.substr(mark)), {}});
  VId joined = kUnknown;
  for (Library* lib : libraries_) {
    if (lib->Join(*this, pieces, &joined)) return joined;
  }
  return kUnknown;
}

// The methods of a str.
VId Analyzer::StrMethod(VId recv, std::string_view method, Args& args) {
  const Value& r = V(recv);
  if (method == "format") return Format(recv, args);
  std::string text = r.text;
  if (method == "encode") return recv;  // keeps the text for base64 scripts
  if (args.positional.empty() && args.keywords.empty()) {
    if (method == "lower") {
      for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      return store_.Str(text);
    }
    if (method == "upper") {
      for (char& c : text) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      return store_.Str(text);
    }
    if (method == "strip" || method == "lstrip" || method == "rstrip") {
      size_t b = method == "rstrip" ? 0 : text.find_first_not_of(" \t\r\n");
      if (b == std::string::npos) return store_.Str("");
      size_t e = method == "lstrip" ? text.size() : text.find_last_not_of(" \t\r\n") + 1;
      return store_.Str(text.substr(b, e - b));
    }
    if (method == "decode") return recv;
  }
  if (method == "replace" && args.positional.size() == 2) {
    const Value& a = V(args.positional[0].v);
    const Value& b = V(args.positional[1].v);
    if (a.kind != VK::kStr || b.kind != VK::kStr || a.text.empty()) return kUnknown;
    std::string out;
    size_t pos = 0;
    while (true) {
      size_t at = text.find(a.text, pos);
      out += text.substr(pos, at == std::string::npos ? std::string::npos : at - pos);
      if (at == std::string::npos) break;
      out += b.text;
      pos = at + a.text.size();
      if (out.size() > Store::kMaxString) return kUnknown;
    }
    return store_.Str(out);
  }
  if (method == "join" && args.positional.size() == 1) {
    const Value& l = V(args.positional[0].v);
    if (l.kind != VK::kList || !l.complete) return kUnknown;
    std::string out;
    for (size_t i = 0; i < l.items.size(); ++i) {
      const Value& x = V(l.items[i].v);
      if (x.kind != VK::kStr) return kUnknown;
      if (i) out += text;
      out += x.text;
      if (out.size() > Store::kMaxString) return kUnknown;
    }
    return store_.Str(out);
  }
  return kUnknown;
}

// The link a string built from `v` carries: a shared name's, or what a library says.
std::string Analyzer::LinkOf(VId v) {
  const Value& x = V(v);
  if (x.kind == VK::kOpaque) return x.link;
  for (Library* lib : libraries_) {
    if (std::string key = lib->Link(*this, v); !key.empty()) return key;
  }
  return {};
}

}  // namespace sagelint::py
