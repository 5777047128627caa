"""What several test modules share: paths, the CI switch, sandbox and process checks, bots
written for the occasion, the bundler's runners, cheap deep copies of game positions. Test modules
import from here, never from one another."""
