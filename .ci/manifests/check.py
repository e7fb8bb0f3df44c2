"""Holds the root Package.swift to the packages under Modules/ and to Benchmarks/.

The root package declares the library targets itself, on the sources of those packages (an
app adopting the repository by URL reads the root manifest alone, and a package resolved by
version cannot depend on a local path package), while each of those packages keeps its own
Package.swift. This check reads every manifest with `swift package dump-package` and, for each
non-test target of each package, requires the root target of the same name to have the same
kind, source folder, dependencies (by name, with their conditions), resources, exclusions,
settings and system-library providers; and every root target on their sources to be one of
theirs. Prints one line per difference and exits 1 if there is any.

    python3 .ci/manifests/check.py [--root DIR]     # DIR: the repository; default: this one
"""
import argparse
import json
import pathlib
import subprocess
import sys

COMPARED = ["type", "resources", "exclude", "settings", "providers", "pkgConfig"]


def dump(package):
    """The manifest of the package in `package`, as `swift package dump-package` prints it."""
    result = subprocess.run(["swift", "package", "dump-package", "--package-path", str(package)],
                            capture_output=True, text=True, timeout=300)
    if result.returncode != 0:
        sys.exit(f"{package}/Package.swift: swift package dump-package failed\n{result.stderr}")
    return json.loads(result.stdout)


def folder(package, target):
    """The target's source folder, resolved."""
    default = "Tests" if target["type"] == "test" else "Sources"
    return (package / (target.get("path") or f"{default}/{target['name']}")).resolve()


def dependencies(target):
    """The target's dependencies as sorted (name, condition) pairs: a product `Tracking` of
    the package `Tracking` and the root's target `Tracking` are the same dependency."""
    pairs = []
    for dependency in target["dependencies"]:
        (kind, value), = dependency.items()
        condition = value[-1] if kind != "product" else value[3]
        pairs.append((value[0], json.dumps(condition, sort_keys=True)))
    return sorted(pairs)


def compare(root, packages):
    """The differences between the root manifest and the packages', one line each."""
    root_manifest = dump(root)
    root_targets = {t["name"]: t for t in root_manifest["targets"]}
    problems = []
    claimed = set()
    for package in packages:
        manifest = dump(package)
        where = package.relative_to(root)
        for target in manifest["targets"]:
            if target["type"] == "test":
                continue
            name = target["name"]
            mine = root_targets.get(name)
            if mine is None:
                problems.append(f"Package.swift: no target {name} ({where}/Package.swift declares it)")
                continue
            claimed.add(name)
            if folder(root, mine) != folder(package, target):
                problems.append(f"Package.swift: {name} is on {folder(root, mine).relative_to(root)}, "
                                f"{where} has it on {folder(package, target).relative_to(root)}")
            if dependencies(mine) != dependencies(target):
                problems.append(f"Package.swift: {name} depends on {[n for n, _ in dependencies(mine)]}, "
                                f"in {where} on {[n for n, _ in dependencies(target)]} (or conditions differ)")
            for key in COMPARED:
                if (mine.get(key) or None) != (target.get(key) or None):
                    problems.append(f"Package.swift: {name}'s {key} differ from {where}/Package.swift: "
                                    f"{mine.get(key)} against {target.get(key)}")
    covered = [package.resolve() for package in packages]
    for name, target in root_targets.items():
        if target["type"] != "test" and name not in claimed and any(
                folder(root, target).is_relative_to(package) for package in covered):
            problems.append(f"Package.swift: {name} is on the sources of a package under Modules/ "
                            f"or Benchmarks/ that does not declare it")
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", default=pathlib.Path(__file__).resolve().parents[2], type=pathlib.Path)
    root = parser.parse_args().root.resolve()
    packages = sorted(p.parent for p in root.glob("Modules/*/Package.swift")) + [root / "Benchmarks"]
    problems = compare(root, packages)
    for problem in problems:
        print(problem)
    if problems:
        return 1
    print(f"root manifest: the targets of {len(packages)} packages, declared as they declare them")
    return 0


if __name__ == "__main__":
    sys.exit(main())
