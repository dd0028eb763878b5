// Test-framework integration; see README "Testing".
