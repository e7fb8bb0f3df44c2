#!/usr/bin/env python3
"""Checks the privacy manifests (PrivacyInfo.xcprivacy) of the library targets against their code.

For every target folder Modules/<Package>/Sources/<Target>:
  * each required-reason API category its Swift code uses (required-reason-apis.tsv) must be
    declared in the target's own PrivacyInfo.xcprivacy, with reasons from approved-reasons.tsv;
  * each category the manifest declares must still be used by the code (no stale declarations);
  * a target with a manifest must list it as a resource in its Package.swift
    (read with `swift package dump-package`), so SwiftPM and Xcode ship it in the target's bundle;
  * the manifest's collected data types, purposes and tracking flags use Apple's values.
Prints one line per finding (path:line: what) and exits 1 if there is any, 0 otherwise.

    python3 .ci/privacy/scan.py [--root DIR]     # DIR holds Modules/; default: the repository
"""
import argparse
import json
import os
import pathlib
import plistlib
import re
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent
MANIFEST = "PrivacyInfo.xcprivacy"
IGNORE_MARKER = "privacy-scan: ignore"
COLLECTED_TYPES = {"NSPrivacyCollectedDataType" + name for name in (
    "Name EmailAddress PhoneNumber PhysicalAddress OtherUserContactInfo Health Fitness PaymentInfo "
    "CreditInfo OtherFinancialInfo PreciseLocation CoarseLocation SensitiveInfo Contacts "
    "EmailsOrTextMessages PhotosorVideos AudioData GameplayContent CustomerSupport OtherUserContent "
    "BrowsingHistory SearchHistory UserID DeviceID PurchaseHistory ProductInteraction AdvertisingData "
    "OtherUsageData CrashData PerformanceData OtherDiagnosticData EnvironmentScanning Hands Head "
    "OtherDataTypes").split()}
PURPOSES = {"NSPrivacyCollectedDataTypePurpose" + name for name in (
    "ThirdPartyAdvertising DeveloperAdvertising Analytics ProductPersonalization AppFunctionality "
    "Other").split()}
# `#if` conditions whose code only non-Apple platforms compile; `canImport(Darwin)` is Apple's.
NON_APPLE = re.compile(r"^(os\((Linux|Windows|Android|WASI|FreeBSD|OpenBSD)\)"
                       r"|canImport\((Glibc|Musl|WinSDK|Android|FoundationNetworking)\))$")


def read_table(name):
    """The rows of a tab-separated table next to this script, comments and blank lines skipped."""
    rows = []
    for line in (HERE / name).read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            rows.append(line.split("\t"))
    return rows


def blank_comments_and_strings(text):
    """`text` with comments and string literals replaced by spaces; newlines and columns kept."""
    out, i, n = list(text), 0, len(text)

    def blank(start, end):
        for k in range(start, min(end, n)):
            if out[k] != "\n":
                out[k] = " "

    while i < n:
        if text.startswith("//", i):
            end = text.find("\n", i)
            end = n if end < 0 else end
            blank(i, end)
            i = end
        elif text.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            blank(i, j)
            i = j
        elif text[i] == '"' or (text[i] == "#" and re.match(r'#+"', text[i:])):
            hashes = len(re.match(r"#*", text[i:]).group())
            multiline = text.startswith('"""', i + hashes)
            close = ('"""' if multiline else '"') + "#" * hashes
            j = i + hashes + (3 if multiline else 1)
            while j < n and not text.startswith(close, j):
                if text[j] == "\\" and hashes == 0:
                    j += 1
                elif text[j] == "\n" and not multiline:
                    break
                j += 1
            blank(i, j + len(close))
            i = j + len(close)
        else:
            i += 1
    return "".join(out)


def apple_lines(code):
    """Yields (line number, line) of `code` that Apple platforms may compile."""
    stack = []  # one frame per open #if: [enclosing skipped, this branch skipped, a Darwin branch seen]
    for number, line in enumerate(code.splitlines(), 1):
        directive = re.match(r"\s*#(if|elseif|else|endif)\b(.*)", line)
        if not directive:
            if not (stack and (stack[-1][0] or stack[-1][1])):
                yield number, line
            continue
        kind, condition = directive.group(1), re.sub(r"\s+", "", directive.group(2))
        non_apple = all(NON_APPLE.match(part) for part in condition.split("||")) if condition else False
        if kind == "if":
            enclosing = bool(stack) and (stack[-1][0] or stack[-1][1])
            stack.append([enclosing, non_apple, condition == "canImport(Darwin)"])
        elif kind == "elseif" and stack:
            stack[-1][1] = non_apple
            stack[-1][2] = stack[-1][2] or condition == "canImport(Darwin)"
        elif kind == "else" and stack:
            stack[-1][1] = stack[-1][2]  # after a Darwin branch, #else is for other platforms
        elif kind == "endif" and stack:
            stack.pop()


def uses(target, patterns, root):
    """{category: [(path:line, api)]} of the required-reason APIs the target's Swift code calls."""
    found = {}
    for path in sorted(target.rglob("*.swift")):
        text = path.read_text(encoding="utf-8")
        raw = text.splitlines()
        for number, line in apple_lines(blank_comments_and_strings(text)):
            if IGNORE_MARKER in raw[number - 1]:
                continue
            for category, regex, api in patterns:
                if regex.search(line):
                    found.setdefault(category, []).append((f"{path.relative_to(root)}:{number}", api))
    return found


def resources(package):
    """{target folder: [resource paths]} of one package, from `swift package dump-package`;
    `None` when the manifest does not load."""
    dump = subprocess.run(["swift", "package", "dump-package", "--package-path", str(package)],
                          capture_output=True, text=True)
    if dump.returncode != 0:
        sys.stderr.write(dump.stderr)
        return None
    listed = {}
    for target in json.loads(dump.stdout)["targets"]:
        folder = package / (target.get("path") or f"Sources/{target['name']}")
        listed[folder.resolve()] = [r["path"] for r in target.get("resources", [])]
    return listed


def check_manifest(relative, manifest, approved):
    """The findings about one manifest's own content; its declared categories and their reasons."""
    problems, declared = [], {}
    if manifest.get("NSPrivacyTracking") is not False and manifest.get("NSPrivacyTracking") is not True:
        problems.append(f"{relative}: NSPrivacyTracking must be a boolean")
    if manifest.get("NSPrivacyTracking") is False and manifest.get("NSPrivacyTrackingDomains"):
        problems.append(f"{relative}: NSPrivacyTrackingDomains must be empty when NSPrivacyTracking is false")
    for entry in manifest.get("NSPrivacyCollectedDataTypes", []):
        kind = entry.get("NSPrivacyCollectedDataType")
        if kind not in COLLECTED_TYPES:
            problems.append(f"{relative}: unknown NSPrivacyCollectedDataType {kind!r}")
        for key in ("NSPrivacyCollectedDataTypeLinked", "NSPrivacyCollectedDataTypeTracking"):
            if not isinstance(entry.get(key), bool):
                problems.append(f"{relative}: {kind}: {key} must be a boolean")
        if entry.get("NSPrivacyCollectedDataTypeTracking") and manifest.get("NSPrivacyTracking") is False:
            problems.append(f"{relative}: {kind} is used for tracking but NSPrivacyTracking is false")
        purposes = entry.get("NSPrivacyCollectedDataTypePurposes") or []
        if not purposes or any(p not in PURPOSES for p in purposes):
            problems.append(f"{relative}: {kind}: purposes {purposes} are not Apple's values")
    for entry in manifest.get("NSPrivacyAccessedAPITypes", []):
        category = entry.get("NSPrivacyAccessedAPIType")
        reasons = entry.get("NSPrivacyAccessedAPITypeReasons") or []
        if category not in approved:
            problems.append(f"{relative}: unknown NSPrivacyAccessedAPIType {category!r}")
            continue
        bad = [r for r in reasons if r not in approved[category]]
        if not reasons or bad:
            problems.append(f"{relative}: {category}: reasons {reasons} are not approved for it "
                            f"(approved: {', '.join(sorted(approved[category]))})")
        declared[category] = reasons
    return problems, declared


def check_target(target, found, listed, root, approved):
    """The findings about one target: its API uses against its manifest, and the resource."""
    path = target / MANIFEST
    relative, folder = path.relative_to(root), target.relative_to(root)
    if not path.exists():
        return [f"{place}: uses {api} ({category}), but {folder} has no {MANIFEST}"
                for category, places in sorted(found.items()) for place, api in places]
    try:
        manifest = plistlib.loads(path.read_bytes())
    except Exception as error:  # noqa: BLE001 - any parse failure is a finding
        return [f"{relative}: not a property list: {error}"]
    problems, declared = check_manifest(relative, manifest, approved)
    for category, places in sorted(found.items()):
        if category not in declared:
            problems += [f"{place}: uses {api} ({category}), which {relative} does not declare"
                         for place, api in places]
    for category in sorted(set(declared) - set(found)):
        problems.append(f"{relative}: declares {category}, but no code in {folder} uses it any more (stale)")
    if MANIFEST not in listed().get(target.resolve(), []):
        problems.append(f"{relative}: not listed as a resource of its target in "
                        f"{(target.parent.parent / 'Package.swift').relative_to(root)} "
                        f"(add resources: [.copy(\"{MANIFEST}\")])")
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", default=str(HERE.parent.parent), help="the folder that holds Modules/")
    root = pathlib.Path(parser.parse_args().root).resolve()
    patterns = [(c, re.compile(r), api) for c, r, api in read_table("required-reason-apis.tsv")]
    approved = {}
    for category, reason, _ in read_table("approved-reasons.tsv"):
        approved.setdefault(category, set()).add(reason)

    problems, targets = [], 0
    for package in sorted(p.parent for p in root.glob("Modules/*/Package.swift")):
        cache = {}

        def listed(package=package, cache=cache):
            """The package's resources, dumped once and only when a manifest needs them."""
            if "resources" not in cache:
                cache["resources"] = resources(package)
                if cache["resources"] is None:
                    problems.append(f"{(package / 'Package.swift').relative_to(root)}: "
                                    "swift package dump-package failed")
                    cache["resources"] = {}
            return cache["resources"]

        for target in sorted(p for p in (package / "Sources").glob("*") if p.is_dir()):
            if any(target.rglob("*.swift")):  # not a C or system-library target
                targets += 1
                problems += check_target(target, uses(target, patterns, root), listed, root, approved)
    for folder, subfolders, files in os.walk(root / "Modules"):
        subfolders[:] = [name for name in subfolders if not name.startswith(".")]
        here = pathlib.Path(folder)
        if MANIFEST in files and here.parent.name != "Sources":
            problems.append(f"{(here / MANIFEST).relative_to(root)}: not at the root of a target folder")
    for problem in problems:
        print(problem)
    print(f"privacy scan: {targets} targets, {len(problems)} problem(s)", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
