import { describe, expect, it } from 'vitest';
import {
  CONTENT_SECURITY_POLICY, buildCsp, decideFrameNavigation, decideNavigation, decidePermission, decideWindowOpen, isAllowedExternalUrl,
  isAllowedRequest, isAppUrl, withCspHeader,
} from '../../electron/main/security';

function directives(csp: string): Map<string, string[]> {
  return new Map(csp.split(';').map((d) => d.trim().split(/\s+/)).map(([k, ...v]) => [k ?? '', v]));
}

describe('Content-Security-Policy', () => {
  const d = directives(CONTENT_SECURITY_POLICY);

  it('has the required directives', () => {
    expect(d.get('default-src')).toEqual(["'self'"]);
    expect(d.get('script-src')).toEqual(["'self'"]);
    expect(d.get('img-src')).toEqual(["'self'", 'data:', 'blob:']);
    expect(d.get('connect-src')).toEqual(["'self'"]);
    expect(d.get('object-src')).toEqual(["'none'"]);
    expect(d.get('base-uri')).toEqual(["'none'"]);
    expect(d.get('frame-ancestors')).toEqual(["'none'"]);
  });

  it('allows inline styles only (plotly needs them), never inline or eval scripts', () => {
    expect(d.get('style-src')).toEqual(["'self'", "'unsafe-inline'"]);
    const scriptish = ['script-src', 'default-src', 'worker-src'].flatMap((k) => d.get(k) ?? []);
    expect(scriptish).not.toContain("'unsafe-inline'");
    expect(scriptish).not.toContain("'unsafe-eval'");
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/https?:|\*/);
  });

  it('is a single header line', () => {
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/[\r\n]/);
    expect(buildCsp([['default-src', "'none'"], ['img-src', "'self'", 'data:']])).toBe("default-src 'none'; img-src 'self' data:");
  });

  it('is added to app responses that lack it, and only to those', () => {
    expect(withCspHeader('tunebook://app/index.html', { 'Content-Type': ['text/html'] })).toEqual({
      'Content-Type': ['text/html'], 'Content-Security-Policy': [CONTENT_SECURITY_POLICY],
    });
    const own = { 'content-security-policy': ["default-src 'none'"] };
    expect(withCspHeader('tunebook://app/index.html', own)).toEqual(own);
    const other = { a: ['b'] };
    expect(withCspHeader('devtools://devtools/bundled/x.html', other)).toBe(other);
    expect(withCspHeader('tunebook://app/x.js', undefined)).toEqual({ 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] });
  });
});

describe('isAppUrl', () => {
  it('accepts only tunebook://app/…', () => {
    expect(isAppUrl('tunebook://app/index.html')).toBe(true);
    expect(isAppUrl('tunebook://app/')).toBe(true);
    expect(isAppUrl('tunebook://app')).toBe(true);
    for (const u of ['tunebook://app.evil/x', 'tunebook://other/', 'tunebook://a@app/', 'tunebook://app:1/', 'file:///index.html',
      'https://app/', 'about:blank', '', 'javascript:alert(1)']) {
      expect(isAppUrl(u), u).toBe(false);
    }
  });
});

describe('external links (shell.openExternal allow-list)', () => {
  it('allows https links to listed hosts and their subdomains', () => {
    expect(isAllowedExternalUrl('https://github.com/tunebook/tunebook/issues')).toBe(true);
    expect(isAllowedExternalUrl('https://fio.readthedocs.io/en/latest/fio_doc.html')).toBe(true);
    expect(isAllowedExternalUrl('https://docs.tunebook.dev/x')).toBe(true);
    expect(isAllowedExternalUrl('https://GITHUB.com/x')).toBe(true);
  });

  it('refuses other schemes, hosts, look-alikes, credentials and ports', () => {
    for (const u of [
      'http://github.com/', 'file:///etc/passwd', 'smb://host/share', 'javascript:alert(1)', 'ms-msdt:/id', 'vscode://x',
      'https://evil.com/', 'https://github.com.evil.com/', 'https://evilgithub.com/', 'https://github.com@evil.com/',
      'https://user:pw@github.com/', 'https://github.com:8443/', 'tunebook://app/', 'not a url', '',
    ]) {
      expect(isAllowedExternalUrl(u), u).toBe(false);
    }
  });
});

describe('navigation policy (will-navigate / will-redirect)', () => {
  it('keeps the window on the app', () => {
    expect(decideNavigation('tunebook://app/index.html')).toBe('allow');
    expect(decideNavigation('tunebook://app/studies/3')).toBe('allow');
  });
  it('sends allow-listed https links to the browser', () => {
    expect(decideNavigation('https://github.com/tunebook')).toBe('open-external');
  });
  it('denies everything else', () => {
    for (const u of ['https://evil.com/', 'http://github.com/', 'file:///home/u/x.tunebook', 'data:text/html,<script>1</script>',
      'about:blank', 'javascript:alert(1)', 'tunebook://evil/']) {
      expect(decideNavigation(u), u).toBe('deny');
    }
  });
});

describe('sub-frame navigation (will-frame-navigate)', () => {
  it('lets only the export preview (an inline, sandboxed document) load in a frame', () => {
    expect(decideFrameNavigation('about:srcdoc')).toBe('allow');
    for (const u of ['about:blank', 'https://evil.com/', 'file:///etc/passwd', 'data:text/html,x', 'javascript:alert(1)', 'about:srcdoc#x']) {
      expect(decideFrameNavigation(u), u).toBe('deny');
    }
    // a link in the report preview to an allow-listed page opens the system browser, like one in the window
    expect(decideFrameNavigation('https://github.com/tunebook')).toBe('open-external');
  });
});

describe('window.open policy (setWindowOpenHandler)', () => {
  it('never opens an Electron window', () => {
    expect(decideWindowOpen('tunebook://app/index.html')).toBe('deny');
    expect(decideWindowOpen('https://evil.com/')).toBe('deny');
    expect(decideWindowOpen('about:blank')).toBe('deny');
    expect(decideWindowOpen('https://github.com/x')).toBe('open-external');
  });
});

describe('permissions', () => {
  it('grants clipboard writes to the app only, denies the rest', () => {
    expect(decidePermission('clipboard-sanitized-write', 'tunebook://app/index.html')).toBe(true);
    expect(decidePermission('clipboard-sanitized-write', 'tunebook://app')).toBe(true);
    expect(decidePermission('clipboard-sanitized-write', 'https://evil.com/')).toBe(false);
    expect(decidePermission('clipboard-sanitized-write', undefined)).toBe(false);
    for (const p of ['media', 'geolocation', 'notifications', 'openExternal', 'clipboard-read', 'fileSystem', 'midiSysex', 'unknown']) {
      expect(decidePermission(p, 'tunebook://app/index.html'), p).toBe(false);
    }
  });
});

describe('request filter (no remote content)', () => {
  it('lets local content through and cancels the network', () => {
    expect(isAllowedRequest('tunebook://app/assets/x.js')).toBe(true);
    expect(isAllowedRequest('data:image/png;base64,AAAA')).toBe(true);
    expect(isAllowedRequest('blob:tunebook://app/1234')).toBe(true);
    expect(isAllowedRequest('devtools://devtools/bundled/devtools_app.html')).toBe(true);
    for (const u of ['https://cdn.example.com/x.js', 'http://127.0.0.1:8080/', 'ws://localhost/', 'file:///etc/passwd',
      'tunebook://other/x', 'ftp://x/', 'garbage']) {
      expect(isAllowedRequest(u), u).toBe(false);
    }
  });
});
