# The README's two commands. Each first installs the system packages it needs and the machine lacks
# (scripts/setup-system.sh: apt-get, with sudo when not root), then runs the Swift command.
#
#   make demo    the main job: `tonearm demo`, built in release (debug timings are ten times slower)
#   make test    the test suite (.ci/run runs this too, with TONEARM_WARNINGS_AS_ERRORS=1)

.PHONY: demo test

demo:
	@scripts/setup-system.sh demo
	swift run -c release tonearm demo

test:
	@scripts/setup-system.sh test
	swift test
