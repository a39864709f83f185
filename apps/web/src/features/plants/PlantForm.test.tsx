import { ErrorCode } from '@sunfleet/contracts';
import { act, fireEvent, screen, within } from '@testing-library/react';
import { Form, type FormInstance, Input } from 'antd';
import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/client.ts';
import { renderWithApp } from '../../test/render.tsx';
import { gatewayCodeField } from './Gateway.tsx';
import { pictureProblem } from './PictureField.tsx';
import { emptyPlant, fieldOfAnswer, type PlantFormValues, plantBody, showServerError } from './PlantForm.tsx';
import { PriceSegmentEditor } from './PriceSegmentEditor.tsx';
import type { SegmentDraft } from './priceSegments.ts';

describe('plant form helpers', () => {
  it('builds the body: trimmed texts, nulls for empties, segments only for time-of-use', () => {
    const values = {
      ...emptyPlant(),
      name: '  Rooftop North ',
      capacity: 12.5,
      timezone: 'Europe/Madrid',
      commissioningDate: dayjs('2025-03-04'),
      address: '  ',
      price: 0.2,
      valuationMethod: 'tou' as const,
      priceSegments: [
        { start: '12:00', end: '23:59', price: 0.3 },
        { start: '00:00', end: '12:00', price: 0.1 },
      ],
    };
    const body = plantBody(values);
    expect(body).toMatchObject({
      name: 'Rooftop North',
      capacity: 12.5,
      commissioningDate: '2025-03-04',
      address: null,
      price: null,
      priceSegments: [
        { start: '00:00', end: '12:00', price: 0.1 },
        { start: '12:00', end: '23:59', price: 0.3 },
      ],
    });
    expect(plantBody({ ...values, valuationMethod: 'constant' })).toMatchObject({ price: 0.2, priceSegments: [] });
  });

  it('points the fields a code-4 answer names at the form field they belong to', () => {
    expect(fieldOfAnswer(['priceSegments.2.start'])).toBe('priceSegments');
    expect(fieldOfAnswer(['name'])).toBe('name');
    expect(fieldOfAnswer(['thumbnail'])).toBe('picture');
    expect(fieldOfAnswer(['plantIds', 'capacity'])).toBe('capacity');
    expect(fieldOfAnswer(['constructor'])).toBeNull();
    expect(fieldOfAnswer([])).toBeNull();
    expect(gatewayCodeField(ErrorCode.gatewayMissing)).toBe('sn');
    expect(gatewayCodeField(ErrorCode.gatewayUsed)).toBe('sn');
    expect(gatewayCodeField(ErrorCode.gatewayCredentials)).toBe('key');
    expect(gatewayCodeField(ErrorCode.validation)).toBeNull();
  });

  it("shows a code-4 answer under the field its data.fields names, whatever the message's text says", async () => {
    let form: FormInstance<PlantFormValues> | null = null;
    function Harness() {
      const [instance] = Form.useForm<PlantFormValues>();
      form = instance;
      return (
        <Form form={instance}>
          <Form.Item name="name" data-testid="item-name">
            <Input />
          </Form.Item>
          <Form.Item name="capacity" data-testid="item-capacity">
            <Input />
          </Form.Item>
        </Form>
      );
    }
    renderWithApp(<Harness />);
    const msg = 'Invalid input: body.name must be from 0.01 to 100000';
    let above: string | null = null;
    const show = (fields: string[]) =>
      act(() => showServerError(form!, new ApiError(ErrorCode.validation, msg, true, msg, fields), (t) => (above = t), 'en'));
    await show(['capacity']);
    expect(await within(screen.getByTestId('item-capacity')).findByText(msg)).toBeTruthy();
    expect(within(screen.getByTestId('item-name')).queryByText(msg)).toBeNull();
    expect(above).toBeNull();
    // No field the form has: the text goes above the buttons, not under a field named in the text.
    await show([]);
    expect(above).toBe(msg);
  });

  it('tells a picture by its bytes and size, not its name', async () => {
    const png = new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])]);
    const jpeg = new Blob([new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0, 0, 0])]);
    const gif = new Blob([new TextEncoder().encode('GIF89a..')]);
    expect(await pictureProblem(png)).toBeNull();
    expect(await pictureProblem(jpeg)).toBeNull();
    expect(await pictureProblem(gif)).toBe('type');
    const big = { size: 10 * 1024 * 1024 + 1, slice: () => png } as unknown as Blob;
    expect(await pictureProblem(big)).toBe('size');
  });
});

describe('price segment editor', () => {
  function Harness({ initial }: { initial: SegmentDraft[] }) {
    return (
      <Form initialValues={{ segments: initial }}>
        <Form.Item name="segments">
          <PriceSegmentEditor unit="EUR/kWh" />
        </Form.Item>
      </Form>
    );
  }

  it('adds a row covering the day and shows what is missing once touched', async () => {
    renderWithApp(<Harness initial={[]} />);
    fireEvent.click(screen.getByTestId('segment-add'));
    expect(screen.getAllByTestId(/^segment-start-/)).toHaveLength(1);
    // The new row has no price yet: said next to it.
    expect(await screen.findByText('Enter a price')).toBeTruthy();
  }, 20_000);

  it('stops at six rows; splitting and removing keep the day covered', async () => {
    const hours = ['00:00', '04:00', '08:00', '12:00', '16:00', '23:59'];
    const five = hours.slice(0, -1).map((start, i) => ({ start, end: hours[i + 1]!, price: 0.1 }));
    renderWithApp(<Harness initial={five} />);
    const add = screen.getByTestId('segment-add');
    fireEvent.click(add);
    expect(screen.getAllByTestId(/^segment-start-/)).toHaveLength(6);
    expect((add as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByTestId('segment-remove-0'));
    expect(screen.getAllByTestId(/^segment-start-/)).toHaveLength(5);
    expect(screen.queryByText(/Overlaps|Nothing covers|must end at|must start at/)).toBeNull();
  }, 20_000);
});
