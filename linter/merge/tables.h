// The merged view as tables, rendered alike by every format of `sagelint
// merge` (text, markdown, html): the same rows, each format its own escaping.
#ifndef SAGELINT_LINTER_MERGE_TABLES_H_
#define SAGELINT_LINTER_MERGE_TABLES_H_

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "linter/merge/merge.h"

namespace sagelint::merge {

struct Cell {
  Cell(std::string shown) : text(std::move(shown)) {}
  Cell(std::string shown, double value) : text(std::move(shown)), sort(value) {}
  std::string text;            // as shown (unescaped)
  std::optional<double> sort;  // numeric columns: the value rows sort by
};

struct Table {
  std::string id;     // html: the table's id
  std::string title;  // its heading
  std::vector<std::string> head;
  std::vector<bool> numeric;  // per column: right-aligned, sorted by number
  std::vector<std::vector<Cell>> rows;
  std::vector<Cell> total;  // empty: no totals row
  std::string empty;        // what is said when there is no row
};

// "3 repositories; always on ≈ $1,234/month; avoidable ≈ $56/month; …".
std::string Headline(const MergeResult& m);
// Repositories, findings per rule, costliest workloads.
std::vector<Table> Tables(const MergeResult& m);
// The lists after the tables: (heading, lines): missing, other schema, skipped, duplicates.
std::vector<std::pair<std::string, std::vector<std::string>>> Problems(const MergeResult& m);
// "$1,234" or "?" (not known).
std::string Money(const std::optional<double>& usd);

}  // namespace sagelint::merge

#endif  // SAGELINT_LINTER_MERGE_TABLES_H_
