// The include rule of docs/architecture.md: every project include stays in
// its own layer or goes to a layer the table allows. The table is read from
// the document itself, so the document and the check cannot drift apart.
#include <filesystem>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "tests/catch.h"
#include "tests/test_util.h"

namespace fs = std::filesystem;
using sagelint::testing::ReadFileOrDie;
using sagelint::testing::SourcePath;

namespace {

struct Layer {
  std::string name;
  std::string folder;  // "linter/engine", "parsers"
  std::set<std::string> may_include;
};

std::string Trim(std::string s) {
  size_t b = s.find_first_not_of(" `\t");
  size_t e = s.find_last_not_of(" `\t");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

std::vector<std::string> Cells(const std::string& row) {
  std::vector<std::string> cells;
  std::stringstream in(row);
  std::string cell;
  std::getline(in, cell, '|');  // before the first bar
  while (std::getline(in, cell, '|')) cells.push_back(Trim(cell));
  return cells;
}

// The rows between the layers markers: | layer | folder | may include | … |
std::vector<Layer> ReadLayers(const std::string& doc) {
  std::vector<Layer> layers;
  size_t begin = doc.find("<!-- layers:begin -->");
  size_t end = doc.find("<!-- layers:end -->");
  REQUIRE(begin != std::string::npos);
  REQUIRE(end != std::string::npos);
  std::stringstream in(doc.substr(begin, end - begin));
  std::string line;
  int row = 0;
  while (std::getline(in, line)) {
    if (line.rfind("|", 0) != 0 || ++row <= 2) continue;  // header and separator
    std::vector<std::string> c = Cells(line);
    REQUIRE(c.size() >= 3);
    Layer l{c[0], c[1], {}};
    std::stringstream deps(c[2]);
    std::string dep;
    while (std::getline(deps, dep, ',')) {
      dep = Trim(dep);
      if (!dep.empty() && dep != "—") l.may_include.insert(dep);
    }
    layers.push_back(l);
  }
  return layers;
}

// The layer of a source path: the longest folder that contains it; empty if none.
std::string LayerOf(const std::vector<Layer>& layers, const std::string& path) {
  std::string best, folder;
  for (const Layer& l : layers) {
    if (path.rfind(l.folder + "/", 0) == 0 && l.folder.size() > folder.size()) {
      best = l.name;
      folder = l.folder;
    }
  }
  return best;
}

struct SourceText {
  std::string path;  // relative to the source root
  std::string text;
};

// "path: includes "x" (a → b)" for every include that breaks the rule, and
// for every source file that belongs to no layer.
std::vector<std::string> Violations(const std::vector<Layer>& layers, const std::vector<SourceText>& sources) {
  std::map<std::string, const Layer*> by_name;
  for (const Layer& l : layers) by_name[l.name] = &l;
  static const std::regex include(R"re(^\s*#\s*include\s*"([^"]+)")re");
  std::vector<std::string> out;
  for (const SourceText& s : sources) {
    std::string from = LayerOf(layers, s.path);
    if (from.empty()) {
      out.push_back(s.path + ": belongs to no layer");
      continue;
    }
    std::stringstream in(s.text);
    std::string line;
    while (std::getline(in, line)) {
      std::smatch m;
      if (!std::regex_search(line, m, include)) continue;
      std::string target = m[1];
      std::string to = LayerOf(layers, target);
      if (to.empty() || to == from) continue;  // generated files, tests, third-party headers
      if (!by_name.at(from)->may_include.count(to)) {
        out.push_back(s.path + ": includes \"" + target + "\" (" + from + " may not include " + to + ")");
      }
    }
  }
  return out;
}

std::vector<SourceText> ProjectSources() {
  std::vector<SourceText> out;
  for (const char* top : {"linter", "parsers", "rules"}) {
    for (const auto& e : fs::recursive_directory_iterator(SourcePath(top))) {
      std::string ext = e.path().extension().string();
      if (!e.is_regular_file() || (ext != ".h" && ext != ".cc")) continue;
      std::string rel = fs::relative(e.path(), SourcePath("")).generic_string();
      out.push_back({rel, ReadFileOrDie(e.path().string())});
    }
  }
  return out;
}

}  // namespace

TEST_CASE("every include follows the layer rule of docs/architecture.md", "[architecture]") {
  std::vector<Layer> layers = ReadLayers(ReadFileOrDie(SourcePath("docs/architecture.md")));
  REQUIRE(layers.size() >= 8);
  for (const Layer& l : layers) {
    INFO(l.name);
    CHECK(fs::is_directory(SourcePath(l.folder)));
    for (const std::string& dep : l.may_include) {
      INFO(dep);
      CHECK(std::any_of(layers.begin(), layers.end(), [&](const Layer& x) { return x.name == dep; }));
    }
  }
  std::vector<SourceText> sources = ProjectSources();
  REQUIRE(sources.size() > 50);
  std::vector<std::string> violations = Violations(layers, sources);
  std::string report;
  for (const std::string& v : violations) report += v + "\n";
  INFO(report);
  CHECK(violations.empty());
}

TEST_CASE("the layer check catches a wrong-way include", "[architecture]") {
  std::vector<Layer> layers = ReadLayers(ReadFileOrDie(SourcePath("docs/architecture.md")));
  std::vector<SourceText> sources = {
      {"linter/report/emit_new.cc", "#include \"linter/report/emit.h\"\n#include \"linter/engine/scan.h\"\n"},
      {"rules/sm999_new.cc", "#include \"linter/model/rule.h\"\n  #  include \"parsers/frontend.h\"\n"},
      {"parsers/new/x.cc", "#include \"rules/checks.h\"\n#include <string>\n"},
      {"linter/model/x.h", "#include \"linter/cost/prices.h\"\n"},
      {"linter/cli/ok.cc", "#include \"linter/engine/scan.h\"\n#include \"linter/report/emit.h\"\n"},
      {"linter/stray.cc", "#include \"linter/model/model.h\"\n"},
  };
  std::vector<std::string> v = Violations(layers, sources);
  REQUIRE(v.size() == 5);
  CHECK(v[0] == "linter/report/emit_new.cc: includes \"linter/engine/scan.h\" (report may not include engine)");
  CHECK(v[1] == "rules/sm999_new.cc: includes \"parsers/frontend.h\" (rules may not include parsers)");
  CHECK(v[2] == "parsers/new/x.cc: includes \"rules/checks.h\" (parsers may not include rules)");
  CHECK(v[3] == "linter/model/x.h: includes \"linter/cost/prices.h\" (model may not include cost)");
  CHECK(v[4] == "linter/stray.cc: belongs to no layer");
}

// Catch2 2 and 3 name their headers differently (cmake/Dependencies.cmake):
// a test that includes Catch2 itself builds with one of them only.
TEST_CASE("tests include Catch2 only through tests/catch.h", "[architecture]") {
  std::vector<std::string> direct;
  int seen = 0;
  for (const auto& e : fs::recursive_directory_iterator(SourcePath("tests"))) {
    std::string ext = e.path().extension().string();
    if (!e.is_regular_file() || (ext != ".cc" && ext != ".h")) continue;
    std::string rel = fs::relative(e.path(), SourcePath("")).generic_string();
    if (rel == "tests/catch.h") continue;
    ++seen;
    std::istringstream in(ReadFileOrDie(e.path().string()));
    std::string line;
    while (std::getline(in, line)) {
      if (std::regex_search(line, std::regex(R"(^\s*#\s*include\s*<catch2/)"))) direct.push_back(rel + ": " + line);
    }
  }
  REQUIRE(seen > 20);
  std::string report;
  for (const std::string& d : direct) report += d + "\n";
  INFO(report);
  CHECK(direct.empty());
}

// docs/maintaining.md, "Building and testing": a header includes nlohmann's
// json.hpp, RE2 or yaml-cpp only where its own declarations need the whole
// type; the others name them (<nlohmann/json_fwd.hpp>, forward declarations),
// so a file compiles those libraries only if it uses them.
TEST_CASE("headers include json.hpp, RE2 and yaml-cpp only where they need them", "[architecture]") {
  const std::map<std::string, std::set<std::string>> allowed = {
      {"nlohmann/json.hpp", {"tests/test_util.h"}},
      {"re2/re2.h", {}},
      {"yaml-cpp/yaml.h", {"linter/base/yaml_keys.h", "linter/cli/config.h"}},
  };
  std::vector<std::string> found;
  int seen = 0;
  for (const char* dir : {"linter", "parsers", "rules", "tests"}) {
    for (const auto& e : fs::recursive_directory_iterator(SourcePath(dir))) {
      if (!e.is_regular_file() || e.path().extension() != ".h") continue;
      std::string rel = fs::relative(e.path(), SourcePath("")).generic_string();
      ++seen;
      std::istringstream in(ReadFileOrDie(e.path().string()));
      std::string line;
      while (std::getline(in, line)) {
        for (const auto& [lib, headers] : allowed) {
          if (line.rfind("#include <" + lib + ">", 0) == 0 && !headers.contains(rel))
            found.push_back(rel + ": " + line);
        }
      }
    }
  }
  REQUIRE(seen > 50);
  std::string report;
  for (const std::string& f : found) report += f + "\n";
  INFO(report);
  CHECK(found.empty());
}
