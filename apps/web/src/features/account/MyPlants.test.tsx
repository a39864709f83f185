import { QueryClientProvider } from '@tanstack/react-query';
import { screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../api/hooks.ts';
import { serveUrls } from '../../test/pages.tsx';
import { renderWithApp } from '../../test/render.tsx';
import { MyPlants } from './MyPlants.tsx';

afterEach(() => vi.unstubAllGlobals());

describe('my plants', () => {
  it('shows the account’s own plants by status and their open events, from user/{id}/…Count', async () => {
    const calls = serveUrls((url) =>
      url.includes('/plantCount')
        ? { total: 5, normal: 3, offline: 1, warning: 0, fault: 1, upgrading: 0 }
        : { total: 2, fault: 1, warning: 1, info: 0 },
    );
    renderWithApp(
      <QueryClientProvider client={createQueryClient()}>
        <MemoryRouter>
          <MyPlants userId={17} />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    expect((await screen.findByTestId('my-plants')).textContent).toContain('Plants (own and shared)5');
    expect(screen.getByTestId('my-plants-fault').textContent).toBe('Fault: 1');
    // Event levels in antd's status colours, which the theme seeds from the company colour's palette.
    expect(screen.getByTestId('my-plants-faults').className).toContain('ant-tag-error');
    expect(screen.getByTestId('my-plants-warnings').className).toContain('ant-tag-warning');
    expect(calls.some((u) => u.startsWith('/api/v1/user/17/plantCount'))).toBe(true);
    expect(calls.some((u) => u.startsWith('/api/v1/user/17/eventCount'))).toBe(true);
  });
});
