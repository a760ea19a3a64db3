//===- ConfigNode.h - One located node of a config file ---------*- C++ -*-===//
//
// What every config reader walks: a node of a ConfigDocument that knows its
// file, line and column, reads itself as a typed value, and words every
// complaint the same way in every reader:
//
//   profile.json:12:7: unknown key 'templte' in 'edits[1]'; did you mean 'template'?
//   .opmig.yaml:4:1: 'checks' must be a list of strings
//   rule.yaml:1:1: missing required key 'fix' in the rule
//
// A member that is absent is still a node (exists() is false, its value
// null), located at its parent, so a reader can complain about it.
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_SUPPORT_CONFIGNODE_H
#define OPMIG_SUPPORT_CONFIGNODE_H

#include "opmig/support/ConfigDocument.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/Twine.h"

#include <string>
#include <vector>

namespace opmig {

class ConfigNode {
public:
  /// The top of `Doc`, which must outlive this node and its children.
  explicit ConfigNode(const ConfigDocument &Doc);

  /// The value; null when the node does not exist.
  const nlohmann::json &json() const;
  bool exists() const { return Value != nullptr; }
  const ConfigDocument &document() const { return *Doc; }
  /// The JSON pointer of the node (`/edits/1/id`).
  const std::string &pointer() const { return Pointer; }
  /// The path shown in messages (`edits[1].id`); empty at the top.
  const std::string &path() const { return Path; }
  /// The key of a mapping member; empty otherwise.
  const std::string &key() const { return Key; }

  ConfigLocation location() const;
  /// `FILE:LINE:COL`.
  std::string where() const;
  /// How messages name the node: `'edits[1]'`, or `the profile` at the top.
  std::string describe() const;
  /// InputError `FILE:LINE:COL: Problem`.
  llvm::Error error(const llvm::Twine &Problem) const;

  bool has(llvm::StringRef Name) const;
  ConfigNode member(llvm::StringRef Name) const;
  ConfigNode element(size_t Index) const;
  /// The members of a mapping in the order of the file; none otherwise.
  std::vector<ConfigNode> members() const;
  /// The elements of a list; none otherwise.
  std::vector<ConfigNode> elements() const;

  /// The first member (in the file) whose key is not in `Known`:
  /// `unknown key 'K' in <describe()>; did you mean 'X'?` at that key.
  llvm::Error allowKeys(llvm::ArrayRef<llvm::StringRef> Known) const;
  /// The first of `Required` that is absent:
  /// `missing required key 'K' in <describe()>` at this node.
  llvm::Error requireKeys(llvm::ArrayRef<llvm::StringRef> Required) const;

  /// `<describe()> must be a mapping` unless it is one.
  llvm::Error expectMapping() const;
  /// `<describe()> must be a list` unless it is one.
  llvm::Error expectList() const;
  /// The value as a string, a non-empty string, a boolean or a list of
  /// strings; otherwise `<describe()> must be ...` at this node (at the
  /// element, for a list).
  llvm::Expected<std::string> string() const;
  llvm::Expected<std::string> nonEmptyString() const;
  llvm::Expected<bool> boolean() const;
  llvm::Expected<std::vector<std::string>> strings() const;

  /// Optional members: set `Out` when `Name` is present and well typed,
  /// leave it when absent.
  llvm::Error readString(llvm::StringRef Name, std::string &Out) const;
  llvm::Error readBool(llvm::StringRef Name, bool &Out) const;
  llvm::Error readStrings(llvm::StringRef Name, std::vector<std::string> &Out) const;

private:
  ConfigNode(const ConfigDocument &Doc, const nlohmann::json *Value, std::string Pointer,
             std::string Path, std::string Key);

  const ConfigDocument *Doc;
  const nlohmann::json *Value;
  std::string Pointer;
  std::string Path;
  std::string Key;
};

/// `unknown key 'Key' in What; did you mean 'K'?` when a key of `Known` is
/// a likely misspelling of `Key`, else `...; known keys: a, b, c`. Every
/// reader of user input with a fixed set of keys words it so.
std::string unknownKeyMessage(llvm::StringRef Key, llvm::ArrayRef<llvm::StringRef> Known,
                              llvm::StringRef What);

} // namespace opmig

#endif
