// tree-sitter-python node kinds and field ids, resolved once, so the
// interpreter switches on small integers instead of comparing type names.
#ifndef SAGELINT_PARSERS_PYTHON_GRAMMAR_H_
#define SAGELINT_PARSERS_PYTHON_GRAMMAR_H_

#include <tree_sitter/api.h>

#include <cstdint>
#include <vector>

extern "C" const TSLanguage* tree_sitter_python(void);

namespace sagelint::py {

enum class N : uint8_t {
  kOther,
  kModule,
  kBlock,
  kExpressionStatement,
  kAssignment,
  kAugmentedAssignment,
  kIfStatement,
  kElifClause,
  kElseClause,
  kForStatement,
  kWhileStatement,
  kTryStatement,
  kExceptClause,
  kExceptGroupClause,
  kFinallyClause,
  kWithStatement,
  kWithClause,
  kWithItem,
  kFunctionDefinition,
  kClassDefinition,
  kDecoratedDefinition,
  kDecorator,
  kImportStatement,
  kImportFromStatement,
  kFutureImportStatement,
  kAliasedImport,
  kDottedName,
  kWildcardImport,
  kRelativeImport,
  kReturnStatement,
  kRaiseStatement,
  kBreakStatement,
  kContinueStatement,
  kPassStatement,
  kDeleteStatement,
  kGlobalStatement,
  kNonlocalStatement,
  kMatchStatement,
  kCaseClause,
  kComment,
  kError,
  // expressions
  kIdentifier,
  kString,
  kStringStart,
  kStringContent,
  kInterpolation,
  kConcatenatedString,
  kInteger,
  kFloat,
  kTrue,
  kFalse,
  kNone,
  kAttribute,
  kSubscript,
  kCall,
  kArgumentList,
  kKeywordArgument,
  kListSplat,
  kDictionarySplat,
  kDictionary,
  kPair,
  kList,
  kTuple,
  kSet,
  kParenthesizedExpression,
  kBinaryOperator,
  kUnaryOperator,
  kBooleanOperator,
  kNotOperator,
  kComparisonOperator,
  kConditionalExpression,
  kNamedExpression,
  kLambda,
  kListComprehension,
  kDictionaryComprehension,
  kSetComprehension,
  kGeneratorExpression,
  kForInClause,
  kIfClause,
  kAwait,
  kExpressionList,
  kPatternList,
  kTuplePattern,
  kListPattern,
  kAsPattern,
  kParameters,
  kDefaultParameter,
  kTypedParameter,
  kTypedDefaultParameter,
  kListSplatPattern,
  kDictionarySplatPattern,
  kKeywordSeparator,
  kPositionalSeparator,
  kYield,
  kSlice,
  kCount
};

struct Grammar {
  const TSLanguage* language = nullptr;
  std::vector<N> kinds;  // by symbol
  TSFieldId f_left = 0, f_right = 0, f_function = 0, f_arguments = 0, f_object = 0, f_attribute = 0, f_value = 0,
            f_name = 0, f_alias = 0, f_condition = 0, f_consequence = 0, f_alternative = 0, f_body = 0,
            f_parameters = 0, f_key = 0, f_operator = 0, f_module_name = 0, f_subscript = 0, f_expression = 0,
            f_argument = 0, f_definition = 0, f_format_specifier = 0, f_subject = 0, f_type = 0, f_superclasses = 0,
            f_type_conversion = 0;

  N Kind(TSNode n) const {
    if (ts_node_is_null(n)) return N::kOther;  // a missing field (error recovery)
    TSSymbol s = ts_node_symbol(n);
    if (s == static_cast<TSSymbol>(-1)) return N::kError;  // ts_builtin_sym_error
    return s < kinds.size() ? kinds[s] : N::kOther;
  }
  TSNode Field(TSNode n, TSFieldId f) const { return ts_node_child_by_field_id(n, f); }
};

const Grammar& PythonGrammar();

// Every node under `root` in document order, through a tree cursor (no
// recursion, however deep the tree); stops when `visit` returns false.
template <class Visit>
void WalkTree(TSNode root, Visit&& visit) {
  TSTreeCursor c = ts_tree_cursor_new(root);
  for (bool more = true; more;) {
    if (!visit(ts_tree_cursor_current_node(&c))) break;
    if (ts_tree_cursor_goto_first_child(&c)) continue;
    while (!ts_tree_cursor_goto_next_sibling(&c)) {
      if (!ts_tree_cursor_goto_parent(&c)) {
        more = false;
        break;
      }
    }
  }
  ts_tree_cursor_delete(&c);
}

}  // namespace sagelint::py

#endif  // SAGELINT_PARSERS_PYTHON_GRAMMAR_H_
