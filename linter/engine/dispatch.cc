#include "linter/engine/dispatch.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include "linter/base/files.h"

namespace sagelint {
namespace fs = std::filesystem;

namespace {

bool IsTerraformKind(FileKind k) {
  return k == FileKind::kTerraform || k == FileKind::kTerraformJson || k == FileKind::kTerraformVars;
}

ParsedFile Failed(const DiscoveredFile& f, Format format, std::string message) {
  ParsedFile pf;
  pf.result.path = f.display;
  pf.result.format = format;
  pf.result.errors.push_back({std::move(message), {1, 1}});
  return pf;
}

// Everything a front end throws is turned into a parse error: a bug in one
// parser must not lose the file silently or stop the scan.
template <typename Fn>
ParsedFile Guarded(const DiscoveredFile& f, Format format, std::string text, Fn&& parse) {
  ParsedFile pf;
  try {
    pf.result = parse();
  } catch (const std::exception& e) {
    pf = Failed(f, format, std::string("internal parser error: ") + e.what());
  }
  pf.result.path = f.display;
  pf.text = std::move(text);
  return pf;
}

// A cheap byte scan: only files that mention SageMaker (any case, including
// AWS::SageMaker::, sagemaker: IAM actions, AmazonSageMakerFullAccess and
// ServiceNamespace: sagemaker) can hold anything the rules look at.
bool MentionsSageMaker(std::string_view text) {
  return text.find("agemaker") != std::string_view::npos || text.find("ageMaker") != std::string_view::npos ||
         text.find("AGEMAKER") != std::string_view::npos;
}

}  // namespace

bool ReadWholeFile(const std::string& path, std::string* out, std::string* error) {
  return ReadFileCapped(path, kMaxSourceBytes, out, error);
}

std::vector<WorkUnit> PlanUnits(const std::vector<DiscoveredFile>& files) {
  std::vector<WorkUnit> units;
  std::map<std::string, WorkUnit> modules;  // by directory
  for (const DiscoveredFile& f : files) {
    if (!IsTerraformKind(f.kind)) {
      units.push_back({{f}, false, {}});
      continue;
    }
    std::string dir = fs::path(f.abs_path).parent_path().string();
    WorkUnit& m = modules[dir];
    m.terraform_module = true;
    m.files.push_back(f);
  }
  for (auto& [dir, m] : modules) {
    // A file named alone (pre-commit) is evaluated with its module's siblings.
    bool all_named = std::all_of(m.files.begin(), m.files.end(), [](const auto& f) { return f.named; });
    if (all_named) {
      std::set<std::string> have;
      for (const auto& f : m.files) {
        have.insert(f.abs_path);
        m.report_only.push_back(f.display);
      }
      std::error_code ec;
      for (const auto& e : fs::directory_iterator(dir, ec)) {
        std::string p = e.path().string();
        if (have.count(p) || !e.is_regular_file(ec) || !IsTerraformKind(KindOfPath(p))) continue;
        m.files.push_back({p, DisplayPath(p), KindOfPath(p), false});
      }
    }
    units.push_back(std::move(m));
  }
  return units;
}

std::vector<ParsedFile> ParseUnit(const WorkUnit& unit, const ResolveOptions& opts,
                                  std::vector<std::string>* skipped) {
  std::vector<ParsedFile> out;
  if (unit.terraform_module) {
    std::vector<SourceFile> sources;
    std::map<std::string, std::string> texts;
    for (const DiscoveredFile& f : unit.files) {
      SourceFile s{f.display, f.abs_path, {}};
      std::string error;
      if (!ReadWholeFile(f.abs_path, &s.text, &error)) {
        skipped->push_back(f.display + ": " + error);
        continue;
      }
      texts[f.display] = s.text;
      sources.push_back(std::move(s));
    }
    // A module none of whose files mentions SageMaker declares nothing to check.
    if (std::none_of(sources.begin(), sources.end(), [](const SourceFile& f) { return MentionsSageMaker(f.text); })) {
      return out;
    }
    try {
      for (FileResult& r : ParseTerraformModule(sources, opts, unit.report_only)) {
        ParsedFile pf;
        pf.text = texts[r.path];
        pf.result = std::move(r);
        out.push_back(std::move(pf));
      }
    } catch (const std::exception& e) {
      out.push_back(Failed(unit.files.front(), Format::kTerraform, std::string("internal parser error: ") + e.what()));
    }
    return out;
  }

  const DiscoveredFile& f = unit.files.front();
  SourceFile s{f.display, f.abs_path, {}};
  std::string error;
  if (!ReadWholeFile(f.abs_path, &s.text, &error)) {
    skipped->push_back(f.display + ": " + error);
    return out;
  }
  // A cheap byte scan first: only files that can mention SageMaker are parsed.
  switch (f.kind) {
    case FileKind::kPython:
      if (!MentionsSageMaker(s.text)) return out;
      out.push_back(Guarded(f, Format::kPython, s.text, [&] { return ParsePython(s, opts); }));
      break;
    case FileKind::kNotebook:
      if (!MentionsSageMaker(s.text)) return out;
      out.push_back(Guarded(f, Format::kNotebook, s.text, [&] { return ParseNotebook(s, opts); }));
      break;
    case FileKind::kYamlOrJson:
      if (!MentionsSageMaker(s.text)) return out;
      if (LooksLikeTerraformPlan(s.text)) {
        out.push_back(Guarded(f, Format::kTerraform, {}, [&] { return ParseTerraformPlan(s, opts); }));
      } else if (LooksLikeCloudFormation(s.text)) {
        out.push_back(Guarded(f, Format::kCloudFormation, s.text, [&] { return ParseCloudFormation(s, opts); }));
      }
      break;
    default:
      break;
  }
  return out;
}

}  // namespace sagelint
