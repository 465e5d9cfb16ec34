#include "linter/cost/datasets.h"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "linter/base/files.h"
#include "linter/base/strings.h"

namespace sagelint {
namespace {

bool IsLineBlank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

std::string_view TrimBlanks(std::string_view s) {
  while (!s.empty() && IsLineBlank(s.front())) s.remove_prefix(1);
  while (!s.empty() && IsLineBlank(s.back())) s.remove_suffix(1);
  return s;
}

bool AllDigits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  }
  return true;
}

// Bytes per unit; nullopt for an unknown unit.
std::optional<double> UnitBytes(std::string_view unit) {
  static const struct {
    const char* name;
    double bytes;
  } kUnits[] = {
      {"b", 1},
      {"bytes", 1},
      {"k", 1e3},
      {"kb", 1e3},
      {"m", 1e6},
      {"mb", 1e6},
      {"g", 1e9},
      {"gb", 1e9},
      {"t", 1e12},
      {"tb", 1e12},
      {"p", 1e15},
      {"pb", 1e15},
      {"kib", 1024.0},
      {"mib", 1048576.0},
      {"gib", 1073741824.0},
      {"tib", 1099511627776.0},
      {"pib", 1125899906842624.0},
  };
  std::string u = AsciiLower(unit);
  for (const auto& k : kUnits) {
    if (u == k.name) return k.bytes;
  }
  return std::nullopt;
}

// "12345" or, with --human-readable, "1.2 GiB" split over two tokens.
std::optional<double> ParseBytes(std::string_view number, std::string_view unit) {
  std::string n(number);
  char* end = nullptr;
  double v = std::strtod(n.c_str(), &end);
  if (n.empty() || end != n.c_str() + n.size() || !std::isfinite(v) || v < 0) return std::nullopt;
  if (unit.empty()) return v;
  auto per = UnitBytes(unit);
  if (!per) return std::nullopt;
  return v * *per;
}

// Splits one CSV line (RFC 4180 quoting, no embedded newlines: inventory keys
// are URL-encoded).
std::vector<std::string> SplitCsv(std::string_view line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        fields.back() += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        fields.back() += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      fields.emplace_back();
    } else if (c != '\r') {
      fields.back() += c;
    }
  }
  return fields;
}

std::string UrlDecode(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size() && std::isxdigit(static_cast<unsigned char>(s[i + 1])) &&
        std::isxdigit(static_cast<unsigned char>(s[i + 2]))) {
      out += static_cast<char>(std::strtol(std::string(s.substr(i + 1, 2)).c_str(), nullptr, 16));
      i += 2;
    } else {
      out += s[i];
    }
  }
  return out;
}

std::string LineError(const std::string& label, int line, const std::string& what) {
  return label + ":" + std::to_string(line) + ": " + what;
}

std::string Plural(size_t n, const char* word) { return std::to_string(n) + " " + word + (n == 1 ? "" : "s"); }

}  // namespace

std::optional<double> ParseSize(std::string_view text) {
  text = TrimBlanks(text);
  size_t i = 0;
  while (i < text.size() && (std::isdigit(static_cast<unsigned char>(text[i])) || text[i] == '.')) ++i;
  auto bytes = ParseBytes(text.substr(0, i), TrimBlanks(text.substr(i)));
  if (!bytes) return std::nullopt;
  if (TrimBlanks(text.substr(i)).empty()) return *bytes;  // a bare number is GB
  return *bytes / 1e9;
}

std::string FormatGb(double gb) {
  char buf[64];
  double v = gb >= 1000 ? gb / 1000 : gb;
  std::snprintf(buf, sizeof buf, "%.1f", v);
  std::string s = buf;
  if (s.size() > 2 && s.substr(s.size() - 2) == ".0") s.resize(s.size() - 2);
  return s + (gb >= 1000 ? " TB" : " GB");
}

void DatasetSizes::AddPrefix(std::string prefix, double gb, std::string source) {
  prefixes_[std::move(prefix)] = DatasetSize{gb, std::move(source)};
}

void DatasetSizes::AddObject(std::string uri, double bytes, const std::string& listing) {
  objects_[std::move(uri)] = Object{bytes, listing};
}

void DatasetSizes::Merge(const DatasetSizes& later) {
  for (const auto& [prefix, size] : later.prefixes_) prefixes_[prefix] = size;
  for (const auto& [uri, object] : later.objects_) objects_[uri] = object;
}

std::optional<DatasetSize> DatasetSizes::Lookup(std::string_view s3_uri) const {
  const DatasetSize* best = nullptr;
  size_t best_len = 0;
  for (const auto& [prefix, size] : prefixes_) {
    if (s3_uri.starts_with(prefix) && (best == nullptr || prefix.size() > best_len)) {
      best = &size;
      best_len = prefix.size();
    }
  }
  if (best != nullptr) return *best;

  double bytes = 0;
  size_t count = 0;
  std::string listings;
  for (auto it = objects_.lower_bound(s3_uri); it != objects_.end() && it->first.starts_with(s3_uri); ++it) {
    bytes += it->second.bytes;
    ++count;
    if (listings.find(it->second.listing) == std::string::npos) {
      listings += (listings.empty() ? "" : ", ") + it->second.listing;
    }
  }
  if (count == 0) return std::nullopt;
  return DatasetSize{bytes / 1e9,
                     "S3 listing " + listings + ": " + Plural(count, "object") + " under " + std::string(s3_uri)};
}

bool LoadS3Listing(std::string_view text, std::string_view bucket_uri, const std::string& label, DatasetSizes* out,
                   std::string* error) {
  std::string base(bucket_uri);
  if (!base.empty() && base.back() != '/') base += '/';
  if (!base.empty() && (!base.starts_with("s3://") || base.size() <= 6 || base.find('/', 5) != base.size() - 1)) {
    *error = label + ": the bucket must be given as s3://BUCKET/, not " + std::string(bucket_uri);
    return false;
  }
  int line_no = 0;
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t nl = text.find('\n', pos);
    std::string_view raw = text.substr(pos, nl == std::string_view::npos ? text.npos : nl - pos);
    pos = nl == std::string_view::npos ? text.size() + 1 : nl + 1;
    ++line_no;
    std::string_view line = TrimBlanks(raw);
    if (line.empty()) continue;

    if (line.front() == '"') {  // S3 Inventory CSV
      std::vector<std::string> f = SplitCsv(line);
      if (line_no == 1 && AsciiLower(f[0]) == "bucket") continue;
      if (f.size() < 3 || f[0].empty()) {
        *error = LineError(label, line_no, "expected \"bucket\",\"key\",…,\"size\",… (S3 Inventory CSV)");
        return false;
      }
      size_t i = 2;
      while (i < f.size() && !AllDigits(f[i])) ++i;
      if (i == f.size()) continue;  // a delete marker or a row without size
      out->AddObject("s3://" + f[0] + "/" + UrlDecode(f[1]), std::strtod(f[i].c_str(), nullptr), label);
      continue;
    }

    if (line.starts_with("PRE ") || line.starts_with("Total Objects:") || line.starts_with("Total Size:")) {
      continue;
    }
    // "DATE TIME SIZE [UNIT] KEY": walk the blank-separated tokens.
    auto next_token = [&](std::string_view& rest) {
      rest = rest.substr(std::min(rest.size(), rest.find_first_not_of(" \t")));
      size_t end = std::min(rest.size(), rest.find_first_of(" \t"));
      std::string_view tok = rest.substr(0, end);
      rest = rest.substr(end);
      return tok;
    };
    std::string_view rest = raw;
    if (!rest.empty() && rest.back() == '\r') rest.remove_suffix(1);
    std::string_view date = next_token(rest), time = next_token(rest), size = next_token(rest);
    std::optional<double> bytes;
    std::string_view after_size = rest;
    std::string_view unit = next_token(after_size);
    if (UnitBytes(unit) && !after_size.empty()) {
      bytes = ParseBytes(size, unit);
      rest = after_size;
    } else {
      bytes = ParseBytes(size, "");
    }
    if (date.size() != 10 || date[4] != '-' || time.size() != 8 || time[2] != ':' || !bytes || rest.size() < 2) {
      *error =
          LineError(label, line_no, "expected `aws s3 ls --recursive` output (DATE TIME SIZE KEY) or S3 Inventory CSV");
      return false;
    }
    if (base.empty()) {
      *error = label + ": `aws s3 ls` output does not name the bucket; give it as s3://BUCKET/=" + label;
      return false;
    }
    out->AddObject(base + std::string(rest.substr(1)), *bytes, label);  // one blank separates SIZE and KEY
  }
  return true;
}

bool AddDatasetSizeArg(std::string_view arg, DatasetSizes* out, std::string* error) {
  size_t eq = arg.rfind('=');
  std::string_view uri = arg.substr(0, eq == std::string_view::npos ? 0 : eq);
  if (eq == std::string_view::npos || !uri.starts_with("s3://") || uri.size() <= 5) {
    *error = "--dataset-size expects S3URI=SIZE (e.g. s3://bkt/imagenet/=1.2TB), not " + std::string(arg);
    return false;
  }
  auto gb = ParseSize(arg.substr(eq + 1));
  if (!gb) {
    *error = "--dataset-size: bad size '" + std::string(arg.substr(eq + 1)) + "' (e.g. 500GB, 1.2TB, 2TiB)";
    return false;
  }
  out->AddPrefix(std::string(uri), *gb, "--dataset-size");
  return true;
}

bool AddS3ListingArg(std::string_view arg, DatasetSizes* out, std::string* error) {
  std::string_view bucket, path = arg;
  if (arg.starts_with("s3://")) {
    size_t eq = arg.find('=');
    if (eq == std::string_view::npos) {
      *error = "--s3-listing expects [s3://BUCKET/=]FILE, not " + std::string(arg);
      return false;
    }
    bucket = arg.substr(0, eq);
    path = arg.substr(eq + 1);
  }
  std::string text, why;
  if (!ReadFileCapped(std::string(path), kMaxListingBytes, &text, &why)) {
    *error = std::string(path) + ": cannot read: " + why;
    return false;
  }
  return LoadS3Listing(text, bucket, std::string(path), out, error);
}

}  // namespace sagelint
