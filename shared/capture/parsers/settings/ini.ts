/**
 * ini: INI-style configuration (php.ini, conf.d/*.ini such as opcache.ini, php-fpm pool files,
 * my.cnf): [section] headers, key = value, "quoted" / 'quoted' values, ; and # comments (whole
 * line, and after a value when preceded by a blank), bare keys (my.cnf "skip-name-resolve" → "").
 * Also `php -i` / phpinfo() text output ("directive => local value => master value").
 * Settings keys: "section.key", except when the key already has a dotted prefix
 * ("opcache.enable" in [opcache]) or the section is PHP's main [PHP] section.
 */
import type { CaptureParser, LineSink, ParseOutput } from '../../types';
import { commandLine, emptyOutput } from '../kit';
import { promptLine, warnIfEmpty } from './common';

/** the programs of a prompt line in a comment at the top that printed the file */
const TOOLS = ['php', 'php-fpm', 'cat', 'mysqld', 'my_print_defaults', 'less', 'grep', 'head', 'tail'];

const SECTION = /^\[([^\]\n]{1,200})\]\s*(?:[;#].*)?$/;
const KV = /^([A-Za-z_$@][\w.$@-]*(?:\[[^\]]*\])?)\s*=\s*(.*)$/;
const BARE = /^([A-Za-z_][\w.-]*)$/;
const PHPI_ROW = /^(.+?) => (.*)$/;
/** a php -i directive row: "opcache.enable => On => On" (also without phpinfo()'s banner: php -i | grep) */
const DIRECTIVE_ROW = /^[A-Za-z_][\w.[\]-]* => [^=]*(?:=(?!>)[^=]*)* => /;
const SYSCTL_KEY = /^(?:kernel|vm|net|fs|dev|abi|debug|user|crypto|sunrpc)\./;
/** keys a php.ini or my.cnf carries even without a section header */
const PHP_KEY = /^(?:opcache\.|zend_extension$|extension$|memory_limit$|max_execution_time$|upload_max_filesize$|post_max_size$|date\.timezone$|session\.|display_errors$|error_reporting$|pm(?:\.|$)|apc\.|xdebug\.|realpath_cache_|php_(?:admin_)?(?:value|flag)\[)/;
/** keys that may legitimately repeat (php.ini extension=…): values are collected, no warning */
const MULTI = new Set(['extension', 'zend_extension']);
/** sections whose keys are not prefixed */
const ROOT_SECTIONS = new Set(['php']);

/** Value as the file means it: unquoted, inline comment removed. */
function readValue(raw: string): string {
  let v = raw.trim();
  const q = v.charAt(0);
  if ((q === '"' || q === "'") && v.length > 1) {
    const close = v.indexOf(q, 1);
    if (close > 0) return v.slice(1, close);
  }
  // inline comment: ";" or "#" after a blank (PHP treats any unquoted ";" as a comment)
  const m = /(?:^|\s)[;#]/.exec(v);
  if (m) v = v.slice(0, m.index).trim();
  return v;
}

function settingKey(section: string | undefined, key: string): string {
  if (!section || ROOT_SECTIONS.has(section.toLowerCase())) return key;
  const dot = key.indexOf('.');
  const bracket = key.indexOf('[');
  if (dot > 0 && (bracket < 0 || dot < bracket)) return key;
  return `${section}.${key}`;
}

function isPhpInfoStart(line: string): boolean {
  return line === 'phpinfo()' || /^Directive => Local Value => Master Value$/.test(line) || /^PHP Version => \d/.test(line);
}

export const ini: CaptureParser = {
  id: 'ini',
  title: 'INI configuration (php.ini, opcache.ini, php-fpm, my.cnf) and php -i',
  commands: [{ program: 'cat', args: /\.(?:ini|cnf)(?:\s|$)/ }],
  detect(head) {
    let sections = 0, kv = 0, sysctlKv = 0, phpKv = 0, lowerKv = 0, spacedKv = 0, bare = 0, other = 0, phpinfo = 0, arrows = 0, directives = 0, n = 0;
    for (const raw of head) {
      const line = raw.trim();
      if (!line || line.startsWith(';') || line.startsWith('#')) continue;
      if (n++ > 500) break;
      if (isPhpInfoStart(line)) { phpinfo++; continue; }
      if (line.length < 1000 && DIRECTIVE_ROW.test(line)) { arrows++; directives++; continue; }
      if (PHPI_ROW.test(line)) { arrows++; continue; }
      if (SECTION.test(line)) { sections++; continue; }
      const m = KV.exec(line);
      if (m) {
        kv++;
        const k = m[1]!;
        if (SYSCTL_KEY.test(k)) sysctlKv++;
        if (PHP_KEY.test(k)) phpKv++;
        if (/[a-z]/.test(k)) lowerKv++;
        if (/\s=\s/.test(line)) spacedKv++;
        continue;
      }
      if (BARE.test(line) && line.length < 60) { bare++; continue; }
      other++;
    }
    if (phpinfo && arrows >= 3) return 0.6;
    if (directives >= 2 && directives >= other && kv + sections === 0) return 0.5; // php -i | grep …
    if (kv === 0) return 0;
    if (sysctlKv > kv / 2) return 0; // sysctl.conf / sysctl -a
    const ratio = (kv + sections + bare) / (kv + sections + bare + other);
    if (ratio < 0.7) return 0;
    if (sections > 0) {
      let c = kv >= 3 ? 0.75 : 0.55;
      if (phpKv) c += 0.1;
      if (ratio < 0.9) c -= 0.15;
      return c;
    }
    if (lowerKv < kv / 2) return 0; // KEY=value environment files, os-release: not ours
    if (phpKv >= 2 || (phpKv >= 1 && kv <= 3)) return ratio >= 0.9 ? 0.7 : 0.55;
    return spacedKv >= 3 && ratio >= 0.9 ? 0.35 : 0;
  },
  open(): LineSink {
    const out: ParseOutput = emptyOutput();
    let section: string | undefined;
    let phpinfo = false;
    const firstLine = new Map<string, number>();
    let unread = 0;
    let dupCount = 0;
    const warnDup = (key: string, lineNo: number) => {
      dupCount++;
      if (dupCount <= 20) out.warnings.push(`line ${lineNo}: ${key} set again (first on line ${firstLine.get(key)}); the last value wins`);
    };
    const set = (key: string, value: string, lineNo: number, raw: string) => {
      if (key in out.settings) {
        if (MULTI.has(raw)) { out.settings[key] = `${out.settings[key]}, ${value}`; return; }
        warnDup(key, lineNo);
      } else firstLine.set(key, lineNo);
      out.settings[key] = value;
    };
    return {
      line(text, lineNo) {
        const line = text.trim();
        if (!line) return;
        if (line.startsWith(';') || line.startsWith('#')) {
          const c = commandLine(line, TOOLS);
          if (c && lineNo <= 3 && out.command === undefined && /^(?:sudo\s+)?(?:php|php-fpm|cat|mysqld|less|grep|head|tail)\b/.test(c)) out.command = c;
          return;
        }
        if (lineNo <= 3 && out.command === undefined && !KV.test(line) && !SECTION.test(line)) {
          const c = commandLine(line);
          if (c) { out.command = c; return; }
        }
        if (!phpinfo && (isPhpInfoStart(line) || (line.length < 1000 && DIRECTIVE_ROW.test(line)))) phpinfo = true;
        if (phpinfo) {
          const v = /^PHP Version => (\S+)/.exec(line);
          if (v) { out.toolVersion ??= `PHP ${v[1]}`; return; }
          const m = PHPI_ROW.exec(line);
          if (m) {
            const parts = line.split(' => ');
            if (parts.length === 3 && /^[A-Za-z_][\w.\-[\]]*$/.test(parts[0]!) && parts[0] !== 'Directive') {
              const local = parts[1]!.trim();
              out.settings[parts[0]!] = local === 'no value' ? '' : local;
              if (!firstLine.has(parts[0]!)) firstLine.set(parts[0]!, lineNo);
            }
            return;
          }
          return; // module names, banners and prose of phpinfo()
        }
        const s = SECTION.exec(line);
        if (s) { section = s[1]!.trim(); return; }
        const m = KV.exec(line);
        if (m) {
          const raw = m[1]!;
          const rv = m[2]!.trim();
          if (/^["']/.test(rv) && rv.indexOf(rv.charAt(0), 1) < 0) out.warnings.push(`line ${lineNo}: unterminated quoted value for ${raw}`);
          set(settingKey(section, raw), readValue(rv), lineNo, raw);
          return;
        }
        if (BARE.test(line)) { set(settingKey(section, line), '', lineNo, line); return; }
        if (/^!include(dir)?\s/.test(line)) return; // my.cnf includes
        if (promptLine(out, line)) return;
        if (++unread <= 50) out.warnings.push(`line ${lineNo}: could not read "${line.slice(0, 80)}"`);
      },
      end() {
        if (dupCount > 20) out.warnings.push(`${dupCount - 20} more keys were set more than once`);
        if (unread > 50) out.warnings.push(`${unread - 50} more lines could not be read`);
        return warnIfEmpty(out, 'ini settings');
      },
    };
  },
};
