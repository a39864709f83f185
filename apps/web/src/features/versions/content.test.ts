import { describe, expect, it } from 'vitest';
import { notesFor } from './content.ts';

describe('release notes by language', () => {
  const v = { contentZh: '修复', contentEn: 'Fixes' };
  it('reads the Chinese notes in Chinese and the English ones in every other language', () => {
    expect(notesFor('zh', v)).toBe('修复');
    expect(notesFor('zh-CN', v)).toBe('修复');
    expect(notesFor('cn', v)).toBe('修复');
    expect(notesFor('en', v)).toBe('Fixes');
    expect(notesFor('es', v)).toBe('Fixes');
  });
});
