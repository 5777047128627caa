// CodinGame's JavaScript globals for a bot run by the arena (node --require THIS_FILE bot.js):
// readline() returns the next line of standard input without its line end (undefined once the
// input has ended), print(...) writes its arguments joined by spaces and a line end to standard
// output, printErr(...) the same to standard error. Reads and writes are synchronous, so that a
// bot's answer is out before it waits for its next input.
'use strict';

const fs = require('fs');
const { StringDecoder } = require('string_decoder');

const decoder = new StringDecoder('utf8');
const chunk = Buffer.alloc(1 << 16);
const pause = new Int32Array(new SharedArrayBuffer(4));
let pending = '';
let ended = false;

function retrying(call) {
  for (;;) {
    try {
      return call();
    } catch (error) {
      if (error.code !== 'EAGAIN') throw error;
      Atomics.wait(pause, 0, 0, 1); // a non-blocking descriptor: wait a millisecond, then again
    }
  }
}

function readline() {
  for (;;) {
    const end = pending.indexOf('\n');
    if (end >= 0) {
      const line = pending.slice(0, end);
      pending = pending.slice(end + 1);
      return line.endsWith('\r') ? line.slice(0, -1) : line;
    }
    if (ended) {
      const rest = pending;
      pending = '';
      return rest === '' ? undefined : rest;
    }
    const count = retrying(() => {
      try {
        return fs.readSync(0, chunk, 0, chunk.length, null);
      } catch (error) {
        if (error.code === 'EOF') return 0;
        throw error;
      }
    });
    if (count === 0) {
      ended = true;
      pending += decoder.end();
    } else {
      pending += decoder.write(chunk.subarray(0, count));
    }
  }
}

function writeAll(fd, text) {
  const data = Buffer.from(text, 'utf8');
  let done = 0;
  while (done < data.length) {
    done += retrying(() => fs.writeSync(fd, data, done, data.length - done));
  }
}

function print(...args) {
  writeAll(1, args.join(' ') + '\n');
}

function printErr(...args) {
  writeAll(2, args.join(' ') + '\n');
}

globalThis.readline = readline;
globalThis.print = print;
globalThis.printErr = printErr;
