#!/usr/bin/env node
// Writes tests/reference/data/gpt2_token_ids.json: GPT-2's token ids of about
// 300 fortunes and a few hand-picked strings, as computed by the reference
// encoder, the JavaScript of the npm package gpt-3-encoder (MIT; a port of
// OpenAI's encoder.py). tests/data/test_gpt2_tokenizer.cpp compares Lectern's
// ids with these. Only needed to regenerate the committed file:
//   mkdir -p /tmp/enc && (cd /tmp/enc && npm pack gpt-3-encoder && tar xzf gpt-3-encoder-*.tgz)
//   node tests/reference/make_gpt2_token_ids.js /tmp/enc/package
const fs = require('fs');
const path = require('path');

const encoderDir = process.argv[2];
if (!encoderDir) {
  console.error('usage: make_gpt2_token_ids.js PATH_OF_gpt-3-encoder_PACKAGE');
  process.exit(2);
}
const { encode } = require(path.resolve(encoderDir));

// Fortunes are "%"-separated; the choice is deterministic: every fortune with a
// byte past ASCII, then every 23rd of the rest in file order, until 300.
const dir = '/usr/share/games/fortunes';
const files = fs.readdirSync(dir).filter(f => !f.includes('.')).sort();
const all = [];
for (const f of files) {
  const text = fs.readFileSync(path.join(dir, f), 'utf-8');
  for (const fortune of text.split('\n%\n')) if (fortune.length > 0 && fortune.length < 800) all.push(fortune);
}
const unicode = all.filter(s => /[^\x00-\x7f]/.test(s) && !s.includes('\ufffd')).slice(0, 40);
const picked = unicode.slice();
for (let i = 0; picked.length < 300 && i < all.length; i += 23) if (!unicode.includes(all[i])) picked.push(all[i]);

// What fortunes rarely hold: contractions, digits, runs of spaces, tabs, other scripts, emoji.
const handPicked = [
  "I'm sure they'll say it's what we've done, isn't it? 'S 'T 'RE",
  'Pi is 3.14159265358979; 1,000,000 + 2023 = 1002023',
  'a  b   c    d\t\te\n\n\nf  \n  g   ',
  '    leading and trailing spaces    ',
  'Ünïcödé naïve café — “quotes” … Straße',
  '日本語のテキストと中文和한국어',
  'emoji 😀🎉👍🏽 and symbols ©®™ ∑∫√',
  'Ελληνικά και русский текст',
  '',
];
const cases = picked.concat(handPicked).map(text => ({ text, ids: encode(text) }));
const out = path.join(__dirname, 'data', 'gpt2_token_ids.json');
fs.writeFileSync(out, JSON.stringify(cases, null, 0) + '\n');
console.log(`wrote ${cases.length} cases to ${out}`);
