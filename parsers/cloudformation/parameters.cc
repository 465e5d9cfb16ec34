// Template configuration files: parameter values kept beside a template.
#include "parsers/common/node.h"
#include "parsers/frontend.h"

namespace sagelint {
namespace {

bool ScalarText(const cfn::Node& n, std::string* out) {
  if (n.is_scalar() && n.tag.empty()) {
    *out = n.text;
    return true;
  }
  if (n.is_seq()) {
    std::string joined;
    for (size_t i = 0; i < n.items.size(); ++i) {
      if (!n.items[i].is_scalar()) return false;
      joined += (i ? "," : "") + n.items[i].text;
    }
    *out = joined;
    return true;
  }
  return false;
}

}  // namespace

bool LoadTemplateConfiguration(std::string_view text, std::map<std::string, std::string>* out, ParseError* error) {
  cfn::Node root;
  std::vector<cfn::LoadError> errors;
  if (!cfn::LoadDocument(text, 0, cfn::LoadLimits{}, &root, &errors)) {
    *error = errors.empty() ? ParseError{"not JSON or YAML", {1, 1}} : ParseError{errors[0].message, errors[0].pos};
    return false;
  }
  if (!errors.empty()) {
    *error = {errors[0].message, errors[0].pos};
    return false;
  }
  auto bad = [&](const cfn::Node& at, const std::string& what) {
    *error = {what, at.pos.valid() ? at.pos : SourcePos{1, 1}};
    return false;
  };
  if (root.is_map()) {
    const cfn::Node* params = root.Get("Parameters");
    if (!params || !params->is_map()) {
      return bad(root, "expected {\"Parameters\": {...}} or [{\"ParameterKey\": ..., \"ParameterValue\": ...}]");
    }
    for (size_t i = 0; i < params->entries.size(); ++i) {
      std::string value;
      if (!ScalarText(params->entries[i].second, &value)) {
        return bad(params->entries[i].second, "parameter " + params->entries[i].first + ": the value must be a string");
      }
      (*out)[params->entries[i].first] = value;
    }
    return true;
  }
  if (root.is_seq()) {
    for (const cfn::Node& item : root.items) {
      const cfn::Node* key = item.Get("ParameterKey");
      const cfn::Node* value = item.Get("ParameterValue");
      if (!key || !key->is_scalar()) return bad(item, "each entry needs a ParameterKey");
      if (!value) {
        if (item.Get("UsePreviousValue")) continue;  // the deployed value: not known here
        return bad(item, "parameter " + key->text + ": no ParameterValue");
      }
      std::string text;
      if (!ScalarText(*value, &text)) return bad(*value, "parameter " + key->text + ": the value must be a string");
      (*out)[key->text] = text;
    }
    return true;
  }
  return bad(root, "expected {\"Parameters\": {...}} or [{\"ParameterKey\": ..., \"ParameterValue\": ...}]");
}

}  // namespace sagelint
