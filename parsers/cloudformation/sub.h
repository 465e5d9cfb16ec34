// The one reading of an Fn::Sub template string, for every place that
// evaluates one (values, JSON bodies, IAM resource patterns).
#ifndef SAGELINT_PARSERS_CLOUDFORMATION_SUB_H_
#define SAGELINT_PARSERS_CLOUDFORMATION_SUB_H_

#include <string_view>

namespace sagelint::cfn {

// Walks `tmpl`: `literal(text)` for plain text, `variable(name)` for each
// `${Name}` (it returns false to stop the walk). `${!Name}` is the literal
// text `${Name}`; a `${` without its `}` is literal to the end. Returns false
// when a `${` is not closed or `variable` stopped the walk.
template <typename Literal, typename Variable>
bool WalkSub(std::string_view tmpl, Literal&& literal, Variable&& variable) {
  size_t start = 0;
  for (size_t i = 0; i + 1 < tmpl.size();) {
    if (tmpl[i] != '$' || tmpl[i + 1] != '{') {
      ++i;
      continue;
    }
    size_t close = tmpl.find('}', i + 2);
    if (close == std::string_view::npos) {
      literal(tmpl.substr(start));
      return false;
    }
    if (i > start) literal(tmpl.substr(start, i - start));
    std::string_view name = tmpl.substr(i + 2, close - i - 2);
    if (!name.empty() && name[0] == '!') {
      literal("${");
      literal(name.substr(1));
      literal("}");
    } else if (!variable(name)) {
      return false;
    }
    i = start = close + 1;
  }
  if (start < tmpl.size()) literal(tmpl.substr(start));
  return true;
}

}  // namespace sagelint::cfn

#endif  // SAGELINT_PARSERS_CLOUDFORMATION_SUB_H_
