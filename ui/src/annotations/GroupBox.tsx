// A collapsed group on the canvas: one box with the group's name and member count, standing for
// its members (the edges to them are drawn to it, counted: `DocumentView.collapsed`). A React
// Flow node, so the counted edges attach to it and dragging it moves the members.
import { Handle, type NodeProps, Position } from "@xyflow/react";
import { memo } from "react";
import { count } from "../lib/counts";
import { setCollapsed } from "./actions";
import { colorOf } from "./frames";

export type GroupBoxData = { group: string; name: string; color: string; count: number };

export const GroupBox = memo(function GroupBox({ data, selected }: NodeProps & { data: GroupBoxData }) {
  const c = colorOf(data.color);
  return (
    <div
      className={`gb${selected ? " selected" : ""}`}
      style={{ background: c.fill, borderColor: c.line }}
      data-testid={`group-box-${data.group}`}
      onDoubleClick={(e) => {
        e.stopPropagation();
        void setCollapsed(data.group, false);
      }}
      role="group"
      aria-label={`Collapsed group ${data.name}, ${count(data.count, "member")}`}
      title="Double-click to expand"
    >
      <Handle type="target" position={Position.Left} isConnectable={false} />
      <button
        type="button"
        className="an-collapse nodrag"
        style={{ color: c.line }}
        data-testid={`group-expand-${data.group}`}
        aria-label={`expand ${data.name}`}
        onClick={() => void setCollapsed(data.group, false)}
      >
        ▸
      </button>
      <span className="gb-name">{data.name}</span>
      <span className="gb-count" data-testid={`group-count-${data.group}`}>
        {count(data.count, "member")}
      </span>
      <Handle type="source" position={Position.Right} isConnectable={false} />
    </div>
  );
});
