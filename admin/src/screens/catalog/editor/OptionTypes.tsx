// Option types of an entity, edited in place: rename the type, rename each value, move a value
// up or down (catalogOptionValuesReorder with the full new order), add a value. A duplicate name
// is a 409 and shows under the input it came from. Variants keep their value rows, so a rename
// shows in the variants table after the reload.
import { useState } from 'react';
import { ActionIcon, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation } from 'urql';
import { graphql } from '../../../gql';
import { errorMessage } from '../../../api/errors';

const CreateOptionValue = graphql(`
  mutation AdminOptionValueCreate($optionTypeId: UUID!, $value: String!) {
    catalogOptionValueCreate(optionTypeId: $optionTypeId, value: $value) {
      id
    }
  }
`);
const UpdateOptionType = graphql(`
  mutation AdminOptionTypeUpdate($optionTypeId: UUID!, $name: String) {
    catalogOptionTypeUpdate(optionTypeId: $optionTypeId, name: $name) {
      id
      name
    }
  }
`);
const UpdateOptionValue = graphql(`
  mutation AdminOptionValueUpdate($optionValueId: UUID!, $value: String) {
    catalogOptionValueUpdate(optionValueId: $optionValueId, value: $value) {
      id
      value
    }
  }
`);
const ReorderValues = graphql(`
  mutation AdminOptionValuesReorder($optionTypeId: UUID!, $valueIds: [UUID!]!) {
    catalogOptionValuesReorder(optionTypeId: $optionTypeId, valueIds: $valueIds) {
      id
    }
  }
`);

export interface OptionType {
  id: string;
  name: string;
  values: { id: string; value: string }[];
}

/** A text input that saves on Enter or blur when its text changed; the server's message shows under it. */
function RenameInput({ initial, label, save }: { initial: string; label: string; save(next: string): Promise<string | null> }) {
  const [text, setText] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  async function commit() {
    const next = text.trim();
    if (!next || next === initial) {
      setText(initial);
      setError(null);
      return;
    }
    setError(await save(next));
  }
  return (
    <TextInput
      aria-label={label}
      size="xs"
      w={130}
      value={text}
      onChange={(e) => setText(e.currentTarget.value)}
      onBlur={() => void commit()}
      onKeyDown={(e) => {
        if (e.key === 'Enter') void commit();
        if (e.key === 'Escape') setText(initial);
      }}
      error={error ?? undefined}
    />
  );
}

function OptionTypeRow({ optionType, onChanged }: { optionType: OptionType; onChanged(): void }) {
  const [, renameType] = useMutation(UpdateOptionType);
  const [, renameValue] = useMutation(UpdateOptionValue);
  const [reorderState, reorder] = useMutation(ReorderValues);
  const [createState, create] = useMutation(CreateOptionValue);
  const [value, setValue] = useState('');
  const ids = optionType.values.map((v) => v.id);

  async function saved<T extends { error?: Parameters<typeof errorMessage>[0] }>(result: T, message: string): Promise<string | null> {
    if (result.error) return errorMessage(result.error);
    notifications.show({ message });
    onChanged();
    return null;
  }
  async function move(index: number, by: -1 | 1) {
    const next = [...ids];
    const [moved] = next.splice(index, 1);
    if (!moved) return;
    next.splice(index + by, 0, moved);
    const result = await reorder({ optionTypeId: optionType.id, valueIds: next });
    if (result.error) notifications.show({ color: 'red', message: errorMessage(result.error) });
    else onChanged();
  }
  async function add() {
    const result = await create({ optionTypeId: optionType.id, value: value.trim() });
    if (!result.error) {
      setValue('');
      onChanged();
    }
  }
  return (
    <Stack gap={4} role="group" aria-label={`Option ${optionType.name}`}>
      <Group gap="xs" align="start">
        <RenameInput
          key={optionType.name}
          initial={optionType.name}
          label={`Name of option ${optionType.name}`}
          save={async (name) => saved(await renameType({ optionTypeId: optionType.id, name }), `Renamed to ${name}`)}
        />
        <Text size="sm" pt={4}>
          values:
        </Text>
        {optionType.values.map((v, index) => (
          <Group key={v.id} gap={2} wrap="nowrap" align="start">
            <RenameInput
              key={v.value}
              initial={v.value}
              label={`${optionType.name} value ${v.value}`}
              save={async (next) => saved(await renameValue({ optionValueId: v.id, value: next }), `Renamed to ${next}`)}
            />
            <ActionIcon variant="default" size="md" aria-label={`Move ${v.value} earlier`} disabled={index === 0 || reorderState.fetching} onClick={() => void move(index, -1)}>
              ←
            </ActionIcon>
            <ActionIcon
              variant="default"
              size="md"
              aria-label={`Move ${v.value} later`}
              disabled={index === ids.length - 1 || reorderState.fetching}
              onClick={() => void move(index, 1)}
            >
              →
            </ActionIcon>
          </Group>
        ))}
      </Group>
      <Group gap="xs">
        <TextInput
          aria-label={`New ${optionType.name} value`}
          placeholder={`New ${optionType.name} value`}
          size="xs"
          value={value}
          onChange={(e) => setValue(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && value.trim()) void add();
          }}
          error={createState.error ? errorMessage(createState.error) : undefined}
        />
        <Button size="xs" variant="default" onClick={add} disabled={!value.trim()} loading={createState.fetching}>
          Add value
        </Button>
      </Group>
    </Stack>
  );
}

export function OptionTypes({ optionTypes, onChanged }: { optionTypes: OptionType[]; onChanged(): void }) {
  return (
    <Stack gap="sm">
      {optionTypes.map((o) => (
        <OptionTypeRow key={o.id} optionType={o} onChanged={onChanged} />
      ))}
    </Stack>
  );
}
