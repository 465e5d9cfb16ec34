#include "parsers/python/grammar.h"

#include <cstring>
#include <string_view>
#include <utility>

namespace sagelint::py {
namespace {

Grammar Build() {
  Grammar g;
  g.language = tree_sitter_python();
  static const std::pair<const char*, N> kNames[] = {
      {"module", N::kModule},
      {"block", N::kBlock},
      {"expression_statement", N::kExpressionStatement},
      {"assignment", N::kAssignment},
      {"augmented_assignment", N::kAugmentedAssignment},
      {"if_statement", N::kIfStatement},
      {"elif_clause", N::kElifClause},
      {"else_clause", N::kElseClause},
      {"for_statement", N::kForStatement},
      {"while_statement", N::kWhileStatement},
      {"try_statement", N::kTryStatement},
      {"except_clause", N::kExceptClause},
      {"except_group_clause", N::kExceptGroupClause},
      {"finally_clause", N::kFinallyClause},
      {"with_statement", N::kWithStatement},
      {"with_clause", N::kWithClause},
      {"with_item", N::kWithItem},
      {"function_definition", N::kFunctionDefinition},
      {"class_definition", N::kClassDefinition},
      {"decorated_definition", N::kDecoratedDefinition},
      {"decorator", N::kDecorator},
      {"import_statement", N::kImportStatement},
      {"import_from_statement", N::kImportFromStatement},
      {"future_import_statement", N::kFutureImportStatement},
      {"aliased_import", N::kAliasedImport},
      {"dotted_name", N::kDottedName},
      {"wildcard_import", N::kWildcardImport},
      {"relative_import", N::kRelativeImport},
      {"return_statement", N::kReturnStatement},
      {"raise_statement", N::kRaiseStatement},
      {"break_statement", N::kBreakStatement},
      {"continue_statement", N::kContinueStatement},
      {"pass_statement", N::kPassStatement},
      {"delete_statement", N::kDeleteStatement},
      {"global_statement", N::kGlobalStatement},
      {"nonlocal_statement", N::kNonlocalStatement},
      {"match_statement", N::kMatchStatement},
      {"case_clause", N::kCaseClause},
      {"comment", N::kComment},
      {"ERROR", N::kError},
      {"identifier", N::kIdentifier},
      {"string", N::kString},
      {"string_start", N::kStringStart},
      {"string_content", N::kStringContent},
      {"interpolation", N::kInterpolation},
      {"concatenated_string", N::kConcatenatedString},
      {"integer", N::kInteger},
      {"float", N::kFloat},
      {"true", N::kTrue},
      {"false", N::kFalse},
      {"none", N::kNone},
      {"attribute", N::kAttribute},
      {"subscript", N::kSubscript},
      {"call", N::kCall},
      {"argument_list", N::kArgumentList},
      {"keyword_argument", N::kKeywordArgument},
      {"list_splat", N::kListSplat},
      {"dictionary_splat", N::kDictionarySplat},
      {"dictionary", N::kDictionary},
      {"pair", N::kPair},
      {"list", N::kList},
      {"tuple", N::kTuple},
      {"set", N::kSet},
      {"parenthesized_expression", N::kParenthesizedExpression},
      {"binary_operator", N::kBinaryOperator},
      {"unary_operator", N::kUnaryOperator},
      {"boolean_operator", N::kBooleanOperator},
      {"not_operator", N::kNotOperator},
      {"comparison_operator", N::kComparisonOperator},
      {"conditional_expression", N::kConditionalExpression},
      {"named_expression", N::kNamedExpression},
      {"lambda", N::kLambda},
      {"list_comprehension", N::kListComprehension},
      {"dictionary_comprehension", N::kDictionaryComprehension},
      {"set_comprehension", N::kSetComprehension},
      {"generator_expression", N::kGeneratorExpression},
      {"for_in_clause", N::kForInClause},
      {"if_clause", N::kIfClause},
      {"await", N::kAwait},
      {"expression_list", N::kExpressionList},
      {"pattern_list", N::kPatternList},
      {"tuple_pattern", N::kTuplePattern},
      {"list_pattern", N::kListPattern},
      {"as_pattern", N::kAsPattern},
      {"parameters", N::kParameters},
      {"lambda_parameters", N::kParameters},
      {"default_parameter", N::kDefaultParameter},
      {"typed_parameter", N::kTypedParameter},
      {"typed_default_parameter", N::kTypedDefaultParameter},
      {"list_splat_pattern", N::kListSplatPattern},
      {"dictionary_splat_pattern", N::kDictionarySplatPattern},
      {"keyword_separator", N::kKeywordSeparator},
      {"positional_separator", N::kPositionalSeparator},
      {"yield", N::kYield},
      {"slice", N::kSlice},
  };
  uint32_t count = ts_language_symbol_count(g.language);
  g.kinds.assign(count, N::kOther);
  for (uint32_t s = 0; s < count; ++s) {
    if (ts_language_symbol_type(g.language, static_cast<TSSymbol>(s)) != TSSymbolTypeRegular) continue;
    std::string_view name = ts_language_symbol_name(g.language, static_cast<TSSymbol>(s));
    for (const auto& [n, kind] : kNames) {
      if (name == n) g.kinds[s] = kind;
    }
  }
  auto field = [&](const char* name) {
    return ts_language_field_id_for_name(g.language, name, static_cast<uint32_t>(std::strlen(name)));
  };
  g.f_left = field("left");
  g.f_right = field("right");
  g.f_function = field("function");
  g.f_arguments = field("arguments");
  g.f_object = field("object");
  g.f_attribute = field("attribute");
  g.f_value = field("value");
  g.f_name = field("name");
  g.f_alias = field("alias");
  g.f_condition = field("condition");
  g.f_consequence = field("consequence");
  g.f_alternative = field("alternative");
  g.f_body = field("body");
  g.f_parameters = field("parameters");
  g.f_key = field("key");
  g.f_operator = field("operator");
  g.f_module_name = field("module_name");
  g.f_subscript = field("subscript");
  g.f_expression = field("expression");
  g.f_argument = field("argument");
  g.f_definition = field("definition");
  g.f_format_specifier = field("format_specifier");
  g.f_subject = field("subject");
  g.f_type = field("type");
  g.f_superclasses = field("superclasses");
  g.f_type_conversion = field("type_conversion");
  return g;
}

}  // namespace

const Grammar& PythonGrammar() {
  static const Grammar g = Build();
  return g;
}

}  // namespace sagelint::py
