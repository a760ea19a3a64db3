//===- ObjectCache.h - Objects reused across builds -------------*- C++ -*-===//
//
// A build that runs again (validate's after one file of the domain changed,
// --verify's of a closure that shares TUs with another) recompiles only the
// TUs whose own inputs changed: each object is kept under a key of its
// compile command and its compiler, with the folder it was built in written
// as a placeholder, and with the files the compiler read (its `-MD`
// dependency list). It is reused only when every one of
// those files is still what it was: by content inside the built tree, by
// size and modification time outside it (the toolkit, torch, Python).
//
//===----------------------------------------------------------------------===//

#ifndef OPMIG_SUPPORT_OBJECTCACHE_H
#define OPMIG_SUPPORT_OBJECTCACHE_H

#include <string>
#include <vector>

namespace opmig {

/// One compile of a TU into an object: the command, the folder its paths
/// are relative to (the tree it builds) and the object it writes.
struct ObjectCompile {
  std::vector<std::string> Command;
  std::string Root;
  std::string Object;

  /// Where the compiler writes the inputs it read (`-MD -MF`).
  std::string depFile() const { return Object + ".d"; }
  /// `Command`, also writing the inputs it read to `depFile()`.
  std::vector<std::string> commandWritingInputs() const;
};

class ObjectCache {
public:
  /// Objects under `Dir`; an empty `Dir` keeps nothing.
  explicit ObjectCache(std::string Dir) : Dir(std::move(Dir)) {}

  /// Puts the object `C` would compile in place when one is kept whose
  /// inputs are unchanged; false otherwise.
  bool fetch(const ObjectCompile &C) const;

  /// Keeps the object `C` just compiled, with the inputs its dependency list
  /// names. Best effort: a failure to keep it is no failure of the build.
  void store(const ObjectCompile &C) const;

private:
  std::string entryDir(const ObjectCompile &C) const;
  std::string Dir;
};

/// The paths a make-style dependency file (`-MD -MF`) lists after its target.
std::vector<std::string> parseDependencyFile(const std::string &Text);

} // namespace opmig

#endif
