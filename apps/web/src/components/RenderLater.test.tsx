import { render, screen } from '@testing-library/react';
import { useLayoutEffect } from 'react';
import { describe, expect, it } from 'vitest';
import { RenderLater } from './RenderLater.tsx';

describe('RenderLater', () => {
  it('commits the first cards with the placeholder, then renders the later ones in its place', () => {
    const atFirstCommit: { placeholder: boolean; later: boolean }[] = [];
    function First() {
      useLayoutEffect(() => {
        atFirstCommit.push({
          placeholder: screen.queryByTestId('placeholder') !== null,
          later: screen.queryByTestId('later') !== null,
        });
      }, []);
      return <div data-testid="first" />;
    }
    render(
      <>
        <First />
        <RenderLater placeholder={<div data-testid="placeholder" />}>
          <div data-testid="later" />
        </RenderLater>
      </>,
    );
    expect(atFirstCommit).toEqual([{ placeholder: true, later: false }]);
    expect(screen.getByTestId('later')).toBeTruthy();
    expect(screen.queryByTestId('placeholder')).toBeNull();
  });
});
