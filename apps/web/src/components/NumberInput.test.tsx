import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App as AntApp, Form } from 'antd';
import type { ReactElement } from 'react';
import { I18nextProvider } from 'react-i18next';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createI18n } from '../app/i18n.ts';
import en from '../locales/en/index.ts';
import es from '../locales/es/index.ts';
import { NumberInput } from './NumberInput.tsx';

function renderIn(language: 'en' | 'es', ui: ReactElement) {
  const i18n = language === 'es' ? createI18n('es', es) : createI18n('en', en);
  return render(
    <I18nextProvider i18n={i18n}>
      <AntApp>{ui}</AntApp>
    </I18nextProvider>,
  );
}
const field = () => screen.getByTestId('n') as HTMLInputElement;

afterEach(() => {
  createI18n('en', en);
});

describe('NumberInput', () => {
  it('Spanish: "12,5" typed is 12.5 and shows "12,5"', async () => {
    const onChange = vi.fn();
    renderIn('es', <NumberInput data-testid="n" onChange={onChange} />);
    await userEvent.type(field(), '12,5');
    expect(onChange).toHaveBeenLastCalledWith(12.5);
    await userEvent.tab();
    expect(field().value).toBe('12,5');
  });

  it('Spanish: a value shows with its decimal comma and thousands dots', () => {
    renderIn('es', <NumberInput data-testid="n" value={12345.5} />);
    expect(field().value).toBe('12.345,5');
  });

  it('English is unchanged: "12.5" is 12.5 and shows "12.5"; thousands with commas', async () => {
    const onChange = vi.fn();
    renderIn('en', <NumberInput data-testid="n" onChange={onChange} />);
    await userEvent.type(field(), '12.5');
    expect(onChange).toHaveBeenLastCalledWith(12.5);
    await userEvent.tab();
    expect(field().value).toBe('12.5');
    fireEvent.change(field(), { target: { value: '12345.5' } });
    fireEvent.blur(field());
    expect(field().value).toBe('12,345.5');
  });

  it('keeps at most maxDecimals', async () => {
    const onChange = vi.fn();
    renderIn('es', <NumberInput data-testid="n" maxDecimals={2} onChange={onChange} />);
    await userEvent.type(field(), '3,14159');
    expect(onChange).toHaveBeenLastCalledWith(3.14);
    await userEvent.tab();
    expect(field().value).toBe('3,14');
  });

  it('as a Form.Item control, clearing the field leaves no value', async () => {
    const onValuesChange = vi.fn();
    renderIn(
      'es',
      <Form onValuesChange={onValuesChange} initialValues={{ price: 0.25 }}>
        <Form.Item name="price">
          <NumberInput data-testid="n" />
        </Form.Item>
      </Form>,
    );
    expect(field().value).toBe('0,25');
    await userEvent.clear(field());
    expect(onValuesChange).toHaveBeenLastCalledWith({ price: null }, { price: null });
  });
});
