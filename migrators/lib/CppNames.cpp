//===- CppNames.cpp - Names that become C++ source text -------------------===//

#include "CppNames.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <array>

namespace opmig::migrate {

namespace {

// Sorted, for binary search. [lex.key] and [lex.digraph] of C++20.
constexpr std::array<llvm::StringLiteral, 92> Keywords = {
    "alignas",       "alignof",     "and",
    "and_eq",        "asm",         "auto",
    "bitand",        "bitor",       "bool",
    "break",         "case",        "catch",
    "char",          "char16_t",    "char32_t",
    "char8_t",       "class",       "co_await",
    "co_return",     "co_yield",    "compl",
    "concept",       "const",       "const_cast",
    "consteval",     "constexpr",   "constinit",
    "continue",      "decltype",    "default",
    "delete",        "do",          "double",
    "dynamic_cast",  "else",        "enum",
    "explicit",      "export",      "extern",
    "false",         "float",       "for",
    "friend",        "goto",        "if",
    "inline",        "int",         "long",
    "mutable",       "namespace",   "new",
    "noexcept",      "not",         "not_eq",
    "nullptr",       "operator",    "or",
    "or_eq",         "private",     "protected",
    "public",        "register",    "reinterpret_cast",
    "requires",      "return",      "short",
    "signed",        "sizeof",      "static",
    "static_assert", "static_cast", "struct",
    "switch",        "template",    "this",
    "thread_local",  "throw",       "true",
    "try",           "typedef",     "typeid",
    "typename",      "union",       "unsigned",
    "using",         "virtual",     "void",
    "volatile",      "wchar_t",     "while",
    "xor",           "xor_eq"};

} // namespace

bool isCppKeyword(llvm::StringRef Name) {
  return std::binary_search(Keywords.begin(), Keywords.end(), Name);
}

bool isNamespaceIdentifier(llvm::StringRef Name) {
  return !Name.empty() && (llvm::isAlpha(Name.front()) || Name.front() == '_') &&
         llvm::all_of(Name, [](char C) { return llvm::isAlnum(C) || C == '_'; }) &&
         !isCppKeyword(Name);
}

size_t firstControlCharacter(llvm::StringRef Text) {
  for (size_t I = 0; I < Text.size(); ++I)
    if (static_cast<unsigned char>(Text[I]) < 0x20 || Text[I] == 0x7f)
      return I;
  return llvm::StringRef::npos;
}

} // namespace opmig::migrate
