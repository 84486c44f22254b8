import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { evaluateFindings, parseText } from '../../shared/capture/registry';

const dir = join(__dirname, '../fixtures/captures/ulimit');
const fx = (name: string) => readFileSync(join(dir, name), 'utf8');

describe('ulimit parser', () => {
  it('reads bash ulimit -a (GNU bash 5.2)', () => {
    const c = parseText(fx('bash-a.txt'));
    expect(c.kind).toBe('ulimit');
    expect(c.confidence).toBeGreaterThanOrEqual(0.9);
    expect(c.settings).toEqual({
      rttime: 'unlimited', core: '0', data: 'unlimited', nice: '0', fsize: 'unlimited', sigpending: '96365',
      memlock: '8192', rss: 'unlimited', nofile: '20000', pipe: '8', msgqueue: '819200', rtprio: '0',
      stack: '8192', cpu: 'unlimited', nproc: '96365', as: 'unlimited', locks: 'unlimited',
    });
    expect(c.warnings).toEqual([]);
  });

  it('suffixes hard limits with .hard when the command line says -H', () => {
    const c = parseText(`$ ulimit -a -H\n${fx('bash-a-hard.txt')}`);
    expect(c.kind).toBe('ulimit');
    expect(c.command).toBe('ulimit -a -H');
    expect(c.settings['nofile.hard']).toBe('20000');
    expect(c.settings['core.hard']).toBe('unlimited');
    expect(c.settings.nofile).toBeUndefined();
  });

  it('reads dash ulimit -a', () => {
    const c = parseText(fx('dash-a.txt'));
    expect(c.kind).toBe('ulimit');
    expect(c.confidence).toBeGreaterThanOrEqual(0.8);
    expect(c.settings).toEqual({
      cpu: 'unlimited', fsize: 'unlimited', data: 'unlimited', stack: '8192', core: '0', rss: 'unlimited',
      memlock: '8192', nproc: '96365', nofile: '20000', as: 'unlimited', locks: 'unlimited', rtprio: '0',
    });
  });

  it('reads zsh and busybox spellings (layouts from their sources)', () => {
    // zsh: "-%c: %-30s" per limit, "-N n:" for limits without a letter
    const zsh = parseText('-t: cpu time (seconds)         unlimited\n-f: file size (blocks)         unlimited\n-d: data seg size (kbytes)     unlimited\n-s: stack size (kbytes)        8192\n-c: core file size (blocks)    0\n-n: file descriptors           1024\n-u: processes                  63422\n-N 15: rt cpu time (microseconds) unlimited\n');
    expect(zsh.kind).toBe('ulimit');
    expect(zsh.settings).toMatchObject({ cpu: 'unlimited', stack: '8192', core: '0', nofile: '1024', nproc: '63422', rttime: 'unlimited' });
    // busybox 1.36 prints "%-32s(-%c) " with its own descriptions
    const bb = parseText('core file size (blocks)         (-c) 0\ndata seg size (kb)              (-d) unlimited\nmax locked memory (kb)          (-l) 64\nopen files                      (-n) 1024\nmax user processes              (-u) 7823\n');
    expect(bb.kind).toBe('ulimit');
    expect(bb.settings).toEqual({ core: '0', data: 'unlimited', memlock: '64', nofile: '1024', nproc: '7823' });
    // older busybox "-%c: %-30s": -p is processes there, not pipe size
    const old = parseText('-f: file size (blocks)             unlimited\n-t: cpu time (seconds)             unlimited\n-p: processes                      7823\n-n: file descriptors               1024\n-w: locks                          unlimited\n');
    expect(old.settings).toEqual({ fsize: 'unlimited', cpu: 'unlimited', nproc: '7823', nofile: '1024', locks: 'unlimited' });
    // translated bash descriptions (illustrative wording, not copied from bash.mo): the option letter decides
    const de = parseText('Maximale Größe der Core-Dateien (Blöcke, -c) 0\nDatensegmentgröße (kbytes, -d) unlimited\nAnzahl offener Dateien (-n) 1024\n数据段大小 (kbytes, -d) unlimited\n');
    expect(de.kind).toBe('ulimit');
    expect(de.settings).toEqual({ core: '0', data: 'unlimited', nofile: '1024' });
    // ksh93: shtab_limits descriptions, "%-30s (-%c)  value"
    const ksh = parseText('address space limit (Kibytes)  (-M)  unlimited\ncore file size (blocks)        (-c)  0\nlocked address space (Kibytes) (-l)  64\nnofile                         (-n)  1024\nnproc                          (-u)  62712\npipe buffer size (bytes)       (-p)  4096\nsigpend                        (-i)  62712\nstack size (Kibytes)           (-s)  8192\n');
    expect(ksh.kind).toBe('ulimit');
    expect(ksh.settings).toEqual({ as: 'unlimited', core: '0', memlock: '64', nofile: '1024', nproc: '62712', pipe: '4096', sigpending: '62712', stack: '8192' });
  });

  it('reads /proc/<pid>/limits with soft and .hard keys', () => {
    const c = parseText(fx('proc-limits.txt'));
    expect(c.kind).toBe('ulimit');
    expect(c.confidence).toBeGreaterThanOrEqual(0.9);
    expect(Object.keys(c.settings)).toHaveLength(32);
    expect(c.settings.nofile).toBe('20000');
    expect(c.settings['nofile.hard']).toBe('20000');
    expect(c.settings.stack).toBe('8388608');
    expect(c.settings['stack.hard']).toBe('unlimited');
    expect(c.settings.nice).toBe('0');
    expect(c.facts.limit_unit_stack).toBe('bytes');
  });

  it('reads util-linux prlimit output', () => {
    const c = parseText(fx('prlimit.txt'));
    expect(c.kind).toBe('ulimit');
    expect(c.confidence).toBeGreaterThanOrEqual(0.9);
    expect(Object.keys(c.settings)).toHaveLength(32);
    expect(c.settings).toMatchObject({ nofile: '20000', 'nofile.hard': '20000', core: '0', 'core.hard': 'unlimited', memlock: '8388608', nice: '0', stack: '8388608', 'stack.hard': 'unlimited' });
    // same keys and values as /proc/<pid>/limits of the same limits
    const proc = parseText(fx('proc-limits.txt'));
    expect(c.settings).toEqual(proc.settings);
  });

  it('reads a lone value only when the command line shows ulimit -n', () => {
    const c = parseText(fx('ulimit-n.txt'));
    expect(c.kind).toBe('ulimit');
    expect(c.command).toBe('ulimit -n');
    expect(c.settings).toEqual({ nofile: '20000' });
    expect(parseText('$ ulimit -Hn\n4096\n').settings).toEqual({ 'nofile.hard': '4096' });
    expect(parseText('20000\n').kind).toBe('text');
  });

  it('survives CRLF, ANSI and a truncated capture', () => {
    const text = '\x1b[1mroot@h:~#\x1b[0m ulimit -a\r\n' + fx('bash-a.txt').replace(/\n/g, '\r\n');
    const c = parseText(text);
    expect(c.kind).toBe('ulimit');
    expect(c.command).toBe('ulimit -a');
    expect(c.settings.nofile).toBe('20000');
    const bash = fx('bash-a.txt');
    const cut = parseText(bash.slice(0, bash.indexOf('(-n)') + 2));
    expect(cut.kind).toBe('ulimit');
    expect(cut.settings.nofile).toBeUndefined();
    expect(cut.warnings[0]).toMatch(/^line 9: could not read "open files/);
  });

  it('fd.ulimit-low: compares nofile with the sockets of the experiment', () => {
    const ss = parseText(readFileSync(join(__dirname, '../fixtures/captures/ss/ss-tan.txt'), 'utf8'), { file: 'ss-tan.txt' });
    // the real limit (20000) is far above 307 sockets: no finding
    const real = parseText(fx('ulimit-n.txt'));
    expect(evaluateFindings([real, ss])[0]).toEqual([]);
    // 512 (derived from the same capture) is below 307 / 0.5
    const low = parseText(fx('ulimit-n.txt').replace('20000', '512'));
    const [f] = evaluateFindings([low, ss])[0]!;
    expect(f?.id).toBe('fd.ulimit-low');
    expect(f?.severity).toBe('info');
    expect(f?.message).toMatch(/^open files limit \(ulimit -n\) is 512, and the ss capture \(ss-tan\.txt\) shows 307 sockets \(60 % of it\)/);
    const tiny = parseText(fx('ulimit-n.txt').replace('20000', '350'));
    expect(evaluateFindings([tiny, ss])[0]![0]?.severity).toBe('warning');
    // alone, 1024 is low for a server
    const alone = parseText(fx('ulimit-n.txt').replace('20000', '1024'));
    expect(alone.findings[0]?.message).toMatch(/^open files limit \(ulimit -n\) is 1024: low for a server workload/);
    expect(alone.findings[0]?.severity).toBe('info');
  });
});
