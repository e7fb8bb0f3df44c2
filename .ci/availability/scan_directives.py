"""The `#if` branches of a source file, for swiftscan's SourceFile: which platforms skip each."""

from ifconditions import _evaluate
from platforms import APPLE, NEVER
from swifttokens import ConditionalBranch, Region, ScanError


class ConditionalCompilation:
    """SourceFile's `#if` part: fills `branches`, and `regions` where a platform skips code."""

    def _conditional_compilation(self):
        groups, stack = [], []
        for index, token in enumerate(self.tokens):
            if token.kind != "pound" or token.text not in ("#if", "#elseif", "#else", "#endif"):
                continue
            if token.text == "#if":
                stack.append([index])
                continue
            if not stack:
                raise ScanError(f"{self.name}:{self.line_of(token.start)}: {token.text} without #if")
            stack[-1].append(index)
            if token.text == "#endif":
                groups.append(stack.pop())
        if stack:
            raise ScanError(f"{self.name}: #if without #endif")
        groups.sort()
        for group in groups:
            taken = {p: False for p in APPLE + ("Linux",)}   # False / True / None (cannot tell)
            for position, index in enumerate(group[:-1]):
                token = self.tokens[index]
                end = self.tokens[group[position + 1]].start
                if token.text == "#else":
                    values = {p: True for p in taken}
                else:
                    condition = self._directive_condition(index)
                    values = {p: _evaluate(condition, p) for p in taken}
                # Skipped on p if an earlier branch is certainly taken there, or if its own
                # condition is certainly false there.
                dead = {p for p in taken if taken[p] is True or values[p] is False}
                for p in taken:
                    if taken[p] is not True and values[p] is not False:
                        taken[p] = values[p] if taken[p] is False else (True if values[p] is True else None)
                body_start = self._directive_condition_end(index)
                self.branches.append(ConditionalBranch(
                    start=token.start, end=end, line=self.line_of(token.start),
                    live_on_linux="Linux" not in dead,
                    dead_on=frozenset(p for p in APPLE if p in dead),
                    code=self._has_code(body_start, end)))
        # A branch nested in a branch a platform skips is skipped there too.
        for branch in self.branches:
            for outer in self.branches:
                if outer.start < branch.start < outer.end:
                    branch.live_on_linux = branch.live_on_linux and outer.live_on_linux
                    branch.dead_on = branch.dead_on | outer.dead_on
        for branch in self.branches:
            if branch.dead_on:
                self.regions.append(Region(branch.start, branch.end, {p: NEVER for p in branch.dead_on},
                                           f"#if branch at line {branch.line} not compiled there"))

    def apple_only_branches(self):
        """#if branches with code that some Apple platform compiles but Linux does not: the index
        has nothing from them, so they are not checked."""
        return [b for b in self.branches if not b.live_on_linux and b.code and len(b.dead_on) < len(APPLE)]

    def _directive_condition(self, index):
        line = self.line_of(self.tokens[index].start)
        condition = []
        for token in self.tokens[index + 1:]:
            if self.line_of(token.start) != line:
                break
            condition.append(token)
        return condition

    def _directive_condition_end(self, index):
        condition = self._directive_condition(index)
        return condition[-1].end if condition else self.tokens[index].end

    def _has_code(self, start, end):
        """True if [start, end) holds tokens other than `import X` lines."""
        tokens = [t for t in self.tokens if start <= t.start < end]
        i = 0
        while i < len(tokens):
            token = tokens[i]
            if token.kind == "ident" and token.text == "import":
                line = self.line_of(token.start)
                while i < len(tokens) and self.line_of(tokens[i].start) == line:
                    i += 1
                continue
            if token.kind == "at" and i + 1 < len(tokens) and tokens[i + 1].text == "import":
                i += 1  # @_exported import, @preconcurrency import
                continue
            return True
        return False
