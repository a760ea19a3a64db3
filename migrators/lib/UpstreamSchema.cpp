#include "UpstreamSchema.h"

#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace opmig::migrate {

namespace {

/// The text between the first `(` and its matching `)`, or nothing.
std::optional<llvm::StringRef> argumentList(llvm::StringRef Schema) {
  size_t Open = Schema.find('(');
  if (Open == llvm::StringRef::npos)
    return std::nullopt;
  int Depth = 0;
  for (size_t I = Open; I < Schema.size(); ++I) {
    Depth += Schema[I] == '(' || Schema[I] == '['   ? 1
             : Schema[I] == ')' || Schema[I] == ']' ? -1
                                                    : 0;
    if (Depth == 0)
      return Schema.slice(Open + 1, I);
  }
  return std::nullopt;
}

/// Splits at the commas outside parentheses and brackets (`int[2] size`,
/// `Tensor(a!) out`, `float[] v=[1., 2.]`).
llvm::SmallVector<llvm::StringRef> topLevelItems(llvm::StringRef List) {
  llvm::SmallVector<llvm::StringRef> Items;
  int Depth = 0;
  size_t Start = 0;
  for (size_t I = 0; I <= List.size(); ++I) {
    char C = I < List.size() ? List[I] : ',';
    Depth += C == '(' || C == '[' ? 1 : C == ')' || C == ']' ? -1 : 0;
    if (C == ',' && Depth == 0) {
      if (llvm::StringRef Item = List.slice(Start, I).trim(); !Item.empty())
        Items.push_back(Item);
      Start = I + 1;
    }
  }
  return Items;
}

} // namespace

std::vector<SchemaArgument> schemaArguments(llvm::StringRef Schema) {
  std::optional<llvm::StringRef> List = argumentList(Schema);
  if (!List)
    return {};
  std::vector<SchemaArgument> Arguments;
  for (llvm::StringRef Item : topLevelItems(*List)) {
    if (Item == "*")
      continue;
    llvm::StringRef Declared = Item.split('=').first.rtrim();
    size_t Space = Declared.find_last_of(" \t");
    if (Space == llvm::StringRef::npos)
      return {};
    SchemaArgument Argument;
    Argument.Type = Declared.take_front(Space).rtrim().str();
    Argument.Name = Declared.drop_front(Space + 1).str();
    Argument.Writes = llvm::StringRef(Argument.Type).contains("!)");
    Arguments.push_back(std::move(Argument));
  }
  return Arguments;
}

} // namespace opmig::migrate
