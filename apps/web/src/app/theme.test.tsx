import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { palette } from '../lib/palette.ts';
import { ThemeProvider } from './theme.tsx';

describe('ThemeProvider', () => {
  it('puts the palette on the document as CSS variables, for the CSS modules', () => {
    document.documentElement.removeAttribute('style');
    render(
      <ThemeProvider language="en">
        <span />
      </ThemeProvider>,
    );
    const root = document.documentElement.style;
    expect(root.getPropertyValue('--sf-good')).toBe(palette.good);
    expect(root.getPropertyValue('--sf-good-strong')).toBe(palette.goodStrong);
    expect(root.getPropertyValue('--sf-bad')).toBe(palette.bad);
  });
});
