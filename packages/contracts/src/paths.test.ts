import { describe, expect, it } from 'vitest';
import { PATH_MAX_LENGTH, isValidFileName, normalizePath, splitPath, utf8Length } from './paths.js';
import { checkFolderName } from './rules.js';
import { pathField } from './calls/files.js';
import { searchQuerySchema } from './calls/search.js';

const NFC = '보고서';
const NFD = NFC.normalize('NFD');

describe('names and paths', () => {
  it('refuses bidirectional embeddings, overrides and isolates in file and folder names alike', () => {
    for (const control of ['\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069']) {
      const name = `invoice${control}fdp.exe`;
      expect({ name, file: isValidFileName(name), folder: checkFolderName(`a${control}b`) }).toEqual({ name, file: false, folder: 'rules_folder' });
    }
    // The implicit marks stay allowed: right-to-left names need them.
    expect(isValidFileName('\u05d3\u05d5\u05d7\u200f.pdf')).toBe(true);
  });

  it('compares names in NFC: jamo-typed Korean is the same path and passes the folder rule', () => {
    expect(NFD).not.toBe(NFC);
    expect(splitPath(`/${NFD}/${NFD}.txt`)).toEqual([NFC, `${NFC}.txt`]);
    expect(normalizePath(`/팀/${NFD}/`)).toBe(`/팀/${NFC}`);
    expect(checkFolderName(NFD)).toBeNull();
    // Path parameters and search keywords arrive in NFC whatever the client sent.
    expect(pathField.parse(`/팀/${NFD}/`)).toBe(`/팀/${NFC}`);
    expect(searchQuerySchema.parse({ keyword: ` ${NFD} ` }).keyword).toBe(NFC);
  });

  it('counts the path limit in UTF-8 bytes of the whole path', () => {
    expect(utf8Length('a')).toBe(1);
    expect(utf8Length('é')).toBe(2);
    expect(utf8Length(NFC)).toBe(9);
    expect(utf8Length('😀')).toBe(4);
    // 4,096 bytes fit; one more does not. Korean takes three bytes a character.
    const segment = (bytes: number) => 'a'.repeat(bytes);
    const atLimit = `/${Array.from({ length: 15 }, () => segment(255)).join('/')}/${segment(PATH_MAX_LENGTH - 15 * 256 - 1)}`;
    expect(utf8Length(atLimit)).toBe(PATH_MAX_LENGTH);
    expect(splitPath(atLimit)).not.toBeNull();
    expect(splitPath(`${atLimit}b`)).toBeNull();
    const korean = `/${Array.from({ length: 7 }, () => '가'.repeat(200)).join('/')}`;
    expect(korean.length).toBeLessThan(PATH_MAX_LENGTH);
    expect(splitPath(korean)).toBeNull();
  });
});
