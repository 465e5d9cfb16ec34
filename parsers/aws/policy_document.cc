// IAM policy documents in their own JSON files (README): the statements of
// `{"Version": …, "Statement": […]}`, read as CloudFormation reads an
// AWS::IAM::Policy's PolicyDocument.
#include <string>
#include <string_view>
#include <vector>

#include "parsers/aws/request.h"
#include "parsers/common/node.h"
#include "parsers/common/top_keys.h"
#include "parsers/frontend.h"

namespace sagelint {
namespace {

constexpr size_t kMaxPolicyBytes = 16u << 20;  // IAM itself takes at most 10 KB (6 KB managed)

std::string_view WithoutBom(std::string_view text) {
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
  return text;
}

// A statement that names a principal belongs to a trust or resource policy:
// it lets someone else in, it grants nothing to whoever holds it.
bool NamesPrincipal(const cfn::Node& statements) {
  auto names = [](const cfn::Node& s) { return s.Get("Principal") || s.Get("NotPrincipal"); };
  if (statements.is_map()) return names(statements);
  for (const cfn::Node& s : statements.items) {
    if (names(s)) return true;
  }
  return false;
}

}  // namespace

bool LooksLikeIamPolicyDocument(std::string_view text) {
  text = WithoutBom(text);
  size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos || text[first] != '{') return false;  // JSON only
  auto keys = TopLevelKeys(text);
  if (!keys) return false;
  bool version = false, statement = false;
  for (const std::string& k : *keys) {
    if (k == "Version") {
      version = true;
    } else if (k == "Statement") {
      statement = true;
    } else if (k != "Id") {
      return false;  // a policy document has no other top-level element
    }
  }
  return version && statement;
}

FileResult ParseIamPolicyDocument(const SourceFile& file, const ResolveOptions&) {
  FileResult result;
  result.path = file.path;
  result.root_path = file.root_path;
  result.format = Format::kCloudFormation;
  std::string_view text = WithoutBom(file.text);
  if (text.size() > kMaxPolicyBytes) {
    result.errors.push_back({"policy document larger than 16 MiB; not parsed", {1, 1}});
    return result;
  }
  if (text.find('\0') != std::string_view::npos) {
    result.errors.push_back({"file contains NUL bytes; not a policy document", {1, 1}});
    return result;
  }
  cfn::Node doc;
  std::vector<cfn::LoadError> errors;
  bool loaded = cfn::LoadDocument(text, 0, cfn::LoadLimits{}, &doc, &errors);
  for (const cfn::LoadError& e : errors) result.errors.push_back({e.message, e.pos});
  if (!loaded || !doc.is_map()) return result;
  const cfn::Node* statements = doc.Get("Statement");
  if (!statements || NamesPrincipal(*statements)) return result;
  // Named by its path from the scan root, wherever sagelint was started.
  const std::string& name = file.root_path.empty() ? file.path : file.root_path;
  Workload base;
  base.format = Format::kCloudFormation;
  base.path = file.path;
  base.scope = file.path;
  base.name = name;
  base.range = {doc.pos, doc.pos};
  aws::MapPolicyDocument(doc, aws::PlainValue, base, name, &result.workloads, "IAM policy document");
  return result;
}

}  // namespace sagelint
