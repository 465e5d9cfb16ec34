// Fuzzes the base side of `diff`: hostile git objects (a name listed twice,
// '.', '..' and '/' in names, links anywhere, in loops and out of the tree,
// malformed or truncated entries, a blob where a tree is named) read as a
// file system, as the scan reads it. Never a crash, never a path outside the
// tree, never a read of a file the tree does not hold.
//
// The input is split at "\n--\n": the first chunk is the top tree object;
// chunk i (i >= 1) is the object whose 20-byte id is the byte i repeated, a
// tree when it starts with "tree\n" (the rest is its content), else a blob.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "linter/engine/git.h"

namespace {

std::string Id(int i) {
  static const char* kHex = "0123456789abcdef";
  std::string out;
  for (int k = 0; k < 20; ++k) {
    out += kHex[(i >> 4) & 15];
    out += kHex[i & 15];
  }
  return out;
}

constexpr const char* kTop = "/fuzz/top";

bool Inside(const std::string& p) { return p == kTop || p.rfind(std::string(kTop) + "/", 0) == 0; }

void Visit(const sagelint::GitTreeFiles& tree, const std::string& dir, int depth, int* budget) {
  std::vector<sagelint::DirEntry> entries;
  std::string error;
  if (!tree.List(dir, &entries, &error)) return;
  for (const sagelint::DirEntry& e : entries) {
    if (--*budget < 0) return;
    if (e.name.empty() || e.name == "." || e.name == ".." || e.name.find('/') != std::string::npos) std::abort();
    std::string p = dir + "/" + e.name;
    sagelint::FileType type = tree.Type(p);
    if (auto c = tree.Canonical(p); c && !Inside(*c)) std::abort();
    tree.WeaklyCanonical(p + "/../x");
    tree.WeaklyCanonical(p + "/y/../../..");
    tree.FileSize(p);
    std::string text;
    bool read = tree.Read(p, 1 << 16, &text, &error);
    if (read && type != sagelint::FileType::kRegular) std::abort();
    if (type == sagelint::FileType::kDirectory && depth < 6) Visit(tree, p, depth + 1, budget);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  std::map<std::string, sagelint::GitTreeFiles::Object> objects;
  std::string root = std::string(40, '0');
  size_t start = 0;
  for (int i = 0; i < 256; ++i) {
    size_t end = input.find("\n--\n", start);
    std::string_view chunk = input.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
    bool tree = i == 0 || chunk.substr(0, 5) == "tree\n";
    if (i > 0 && tree) chunk.remove_prefix(5);
    objects[i == 0 ? root : Id(i)] = {tree ? "tree" : "blob", std::string(chunk)};
    if (end == std::string_view::npos) break;
    start = end + 4;
  }
  sagelint::GitTreeLimits limits;
  limits.max_bytes = 4u << 20;
  limits.max_entries = 10'000;
  auto tree = sagelint::GitTreeFiles::FromObjects(std::move(objects), root, kTop, limits);
  int budget = 2000;
  Visit(*tree, kTop, 0, &budget);
  for (const char* p : {"/fuzz/top/..", "/fuzz/top/../top/.git", "/fuzz/other", "/fuzz/top/a/../../b"}) {
    if (auto c = tree->Canonical(p); c && !Inside(*c)) std::abort();
    std::string text, error;
    if (!Inside(std::string(p)) && tree->Read(p, 1024, &text, &error)) std::abort();
  }
  tree->Notes();
  return 0;
}
