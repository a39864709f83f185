import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Form } from 'antd';
import { describe, expect, it, vi } from 'vitest';
import { renderWithApp } from '../test/render.tsx';
import { PasswordInput } from './PasswordInput.tsx';
import { EmailInput, SafeInput } from './SafeInput.tsx';

describe('SafeInput', () => {
  it('blocks forbidden characters (ASCII and full-width) with the input-limit message', async () => {
    const onChange = vi.fn();
    renderWithApp(<SafeInput data-testid="field" onChange={onChange} />);
    const field = screen.getByTestId('field') as HTMLInputElement;
    await userEvent.type(field, 'Plant#1<x>＃ok');
    expect(field.value).toBe('Plant1xok');
    expect(onChange).toHaveBeenLastCalledWith('Plant1xok');
    expect(await screen.findByText(/Special characters such as/)).toBeTruthy();
  });

  it('accepts ordinary text without a message', async () => {
    renderWithApp(<SafeInput data-testid="field" />);
    await userEvent.type(screen.getByTestId('field'), 'Solar Farm - North, 2.5 MW');
    expect((screen.getByTestId('field') as HTMLInputElement).value).toBe('Solar Farm - North, 2.5 MW');
    expect(screen.queryByText(/Special characters such as/)).toBeNull();
  });

  it('trims whitespace on blur', async () => {
    const onChange = vi.fn();
    renderWithApp(<SafeInput data-testid="field" onChange={onChange} />);
    const field = screen.getByTestId('field') as HTMLInputElement;
    await userEvent.type(field, '  Ana  ');
    await userEvent.tab();
    expect(field.value).toBe('Ana');
    expect(onChange).toHaveBeenLastCalledWith('Ana');
  });

  it('works as a Form.Item control', async () => {
    const onValuesChange = vi.fn();
    renderWithApp(
      <Form onValuesChange={onValuesChange}>
        <Form.Item name="name">
          <SafeInput data-testid="field" />
        </Form.Item>
      </Form>,
    );
    await userEvent.type(screen.getByTestId('field'), ' a$b ');
    await userEvent.tab();
    expect(onValuesChange).toHaveBeenLastCalledWith({ name: 'ab' }, { name: 'ab' });
  });

  it('e-mail inputs keep the characters an address may hold', async () => {
    renderWithApp(<EmailInput data-testid="email" />);
    await userEvent.type(screen.getByTestId('email'), "o'neil+pv%1@x.com#");
    expect((screen.getByTestId('email') as HTMLInputElement).value).toBe("o'neil+pv%1@x.com");
  });
});

describe('PasswordInput', () => {
  it('blocks spaces with the password input-limit message', async () => {
    const onChange = vi.fn();
    renderWithApp(<PasswordInput data-testid="pw" onChange={onChange} />);
    const field = screen.getByTestId('pw') as HTMLInputElement;
    await userEvent.type(field, 'se cret #1');
    expect(field.value).toBe('secret#1');
    expect(onChange).toHaveBeenLastCalledWith('secret#1');
    expect(await screen.findByText('Passwords cannot contain spaces')).toBeTruthy();
  });
});
