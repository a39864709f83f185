import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithApp } from '../test/render.tsx';
import { LanguageSwitch } from './LanguageSwitch.tsx';

async function choose(code: string) {
  fireEvent.click(screen.getByTestId('language-switch'));
  fireEvent.click(await screen.findByTestId(`language-${code}`));
}

describe('LanguageSwitch', () => {
  it('signed in, stores the choice in the profile before the page reloads with it', async () => {
    const order: string[] = [];
    const onSave = vi.fn(async (code: string) => {
      order.push(`save ${code} (stored: ${localStorage.getItem('language')})`);
    });
    renderWithApp(<LanguageSwitch onSave={onSave} />);
    await choose('es');
    await waitFor(() => expect(localStorage.getItem('language')).toBe('es'));
    expect(order).toEqual(['save es (stored: null)']);
  });

  it('switches even when the profile cannot be saved', async () => {
    renderWithApp(<LanguageSwitch onSave={() => Promise.reject(new Error('offline'))} />);
    await choose('es');
    await waitFor(() => expect(localStorage.getItem('language')).toBe('es'));
  });
});
