"""`#if` conditions evaluated for one platform, for swiftscan: True, False or None (cannot tell)."""

_OS_NAMES = {
    "macOS": {"macOS", "OSX"},
    "iOS": {"iOS"},
    "macCatalyst": {"iOS"},
    "tvOS": {"tvOS"},
    "watchOS": {"watchOS"},
    "visionOS": {"visionOS", "xrOS"},
    "Linux": {"Linux"},
}
_NOT_ON_APPLE = {"Glibc", "Musl", "WinSDK", "ucrt", "CRT", "Android", "Bionic", "WASILibc",
                 "FoundationNetworking", "FoundationXML", "wasi_pthread"}
_APPLE_ONLY = {"Darwin", "ObjectiveC", "os", "CoreFoundation", "UIKit", "AppKit", "SwiftUI", "Combine",
               "CryptoKit", "Network", "OSLog", "Security", "CoreGraphics", "WatchKit", "UserNotifications"}
_ON_LINUX = {"Glibc", "Foundation", "FoundationNetworking", "FoundationXML", "Dispatch",
             "FoundationEssentials", "Synchronization", "Testing", "XCTest"}


def _evaluate(tokens, platform):
    """True / False / None (cannot tell) for a #if condition on a platform."""
    parser = _ConditionParser(tokens, platform)
    try:
        value = parser.expression()
    except (IndexError, ValueError):
        return None
    return value if parser.at_end() else None


class _ConditionParser:
    def __init__(self, tokens, platform):
        self.tokens = tokens
        self.i = 0
        self.platform = platform

    def at_end(self):
        return self.i >= len(self.tokens)

    def peek(self, offset=0):
        index = self.i + offset
        return self.tokens[index].text if index < len(self.tokens) else None

    def expression(self):
        value = self.conjunction()
        while self.peek() == "|" and self.peek(1) == "|":
            self.i += 2
            right = self.conjunction()
            value = True if (value is True or right is True) else (False if value is False and right is False else None)
        return value

    def conjunction(self):
        value = self.unary()
        while self.peek() == "&" and self.peek(1) == "&":
            self.i += 2
            right = self.unary()
            value = False if (value is False or right is False) else (True if value is True and right is True else None)
        return value

    def unary(self):
        if self.peek() == "!":
            self.i += 1
            value = self.unary()
            return None if value is None else not value
        if self.peek() == "(":
            self.i += 1
            value = self.expression()
            if self.peek() != ")":
                raise ValueError("expected )")
            self.i += 1
            return value
        name = self.peek()
        if name is None:
            raise ValueError("expected a condition")
        self.i += 1
        if name in ("true", "false"):
            return name == "true"
        if self.peek() != "(":
            return None  # DEBUG, a custom flag, $Feature
        depth, args = 0, []
        while True:
            text = self.peek()
            if text is None:
                raise ValueError("unbalanced")
            self.i += 1
            if text == "(":
                depth += 1
                if depth == 1:
                    continue
            elif text == ")":
                depth -= 1
                if depth == 0:
                    break
            args.append(text)
        argument = "".join(args)
        linux = self.platform == "Linux"
        if name == "os":
            return argument in _OS_NAMES[self.platform]
        if name == "canImport":
            module = argument.split(",")[0].split(".")[0]
            if linux:
                if module in _ON_LINUX:
                    return True
                if module in _APPLE_ONLY:
                    return False
                return None
            if module in _NOT_ON_APPLE:
                return False
            if module in ("Darwin", "Foundation", "Dispatch", "ObjectiveC"):
                return True
            return None
        if name == "targetEnvironment":
            if argument == "macCatalyst":
                return self.platform == "macCatalyst"
            return False if linux else None
        if name == "_runtime":
            return not linux if argument == "_ObjC" else None
        return None  # arch, compiler, swift, hasFeature, hasAttribute, _endian, _pointerBitWidth ...
