import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseText } from '../../shared/capture/registry';

const fixture = (id: string, name: string) => readFileSync(join(__dirname, '../fixtures/captures', id, name), 'utf8');

describe('tune2fs', () => {
  it('seed: a grep\'d "Block size:" line after the prompt gives filesystem_block_bytes 4096', () => {
    const c = parseText(fixture('tune2fs', 'tune2fs-block-size.txt'));
    expect(c.kind).toBe('tune2fs');
    expect(c.confidence).toBeGreaterThanOrEqual(0.9);
    expect(c.command).toBe('tune2fs -l /dev/vda1 | grep "Block size"');
    expect(c.facts).toEqual({ filesystem_device: '/dev/vda1', filesystem_block_bytes: 4096 });
    expect(c.warnings).toEqual([]);
  });

  it('full tune2fs -l of an ext4 image (e2fsprogs 1.47.0)', () => {
    const c = parseText(fixture('tune2fs', 'tune2fs-l.txt'));
    expect(c.kind).toBe('tune2fs');
    expect(c.confidence).toBeGreaterThanOrEqual(0.9);
    expect(c.toolVersion).toBe('tune2fs 1.47.0 (5-Feb-2023)');
    expect(c.facts).toMatchObject({
      filesystem_block_bytes: 4096, filesystem_block_count: 16384, filesystem_volume_name: 'tbdata',
      filesystem_size_bytes: 4096 * 16384, filesystem_type: 'ext4', filesystem_inode_bytes: 256, filesystem_state: 'clean',
    });
    expect(c.facts.filesystem_features).toContain('extent');
    expect(c.settings['Reserved block count']).toBe('819');
    expect(c.warnings).toEqual([]);
  });

  it('CRLF and a line that is not key: value', () => {
    const c = parseText(fixture('tune2fs', 'tune2fs-l.txt').replace(/\n/g, '\r\n') + 'garbage\r\n');
    expect(c.facts.filesystem_block_bytes).toBe(4096);
    expect(c.warnings).toHaveLength(1);
  });
});
