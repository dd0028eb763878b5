// Cassette formats and recording to disk; see docs/cassette-format.md.
