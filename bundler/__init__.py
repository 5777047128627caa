"""The bundler: flattens a multi-module bot into the single file CodinGame accepts."""
