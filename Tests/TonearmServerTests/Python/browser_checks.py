"""The browser scripts' one way to report: each check printed as it runs (`ok` or `FAIL`, its name, what
was seen), and a last line the Swift test reads ("checks passed" only when none failed).

    from browser_checks import Checks
    checks = Checks()
    checks.check("the page loaded", status == 200, str(status))
    checks.finish()  # prints the last line; exits 1 when a check failed
"""
import sys


class Checks:
    def __init__(self):
        self.results = []

    def check(self, name, ok, detail=""):
        self.results.append((name, bool(ok)))
        print(f"{'ok  ' if ok else 'FAIL'} {name}{f' ({detail})' if detail else ''}", flush=True)
        return bool(ok)

    @property
    def failed(self):
        return [name for name, ok in self.results if not ok]

    def finish(self):
        passed = len(self.results) - len(self.failed)
        print(f"\n{passed} of {len(self.results)} checks passed" if not self.failed else f"\n{len(self.failed)} checks failed", flush=True)
        sys.exit(1 if self.failed else 0)
