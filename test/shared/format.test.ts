import { describe, expect, it } from 'vitest';
import { formatPercent, pickByteUnit } from '../../shared/format';
import { sizeForInput } from '../../renderer/src/lib/format';

describe('renderer number formatting', () => {
  it('shows timeline changes with a sign and one decimal', () => {
    expect(formatPercent(46.43)).toBe('+46.4 %');
    expect(formatPercent(-5.56)).toBe('\u22125.6 %');
    expect(formatPercent(1857.23)).toBe('+1,857.2 %');
    expect(formatPercent(2000)).toBe('+2,000.0 %');
    expect(formatPercent(null)).toBe('—');
  });

  it('size inputs show short exact sizes exactly, long ones rounded in a binary unit', () => {
    expect(sizeForInput(8 * 2 ** 30)).toEqual({ unit: 'GiB', text: '8' });
    expect(sizeForInput(53687091200)).toEqual({ unit: 'GiB', text: '50' });
    expect(sizeForInput(53.7e9)).toEqual({ unit: 'GB', text: '53.7' });
    // free's 24684092 KiB: rounded for display; the input keeps the exact bytes until edited
    expect(sizeForInput(24684092 * 1024)).toEqual({ unit: 'GiB', text: '23.54' });
    expect(sizeForInput(512)).toEqual({ unit: 'B', text: '512' });
    expect(pickByteUnit(4096)).toBe('KiB');
  });
});
